/**
 * The internal routes, one object each: the services that answer them register their handlers from
 * these, and every caller reaches them through kit's internal client. No other file names a path.
 */
import { z } from '@hono/zod-openapi';
import { StoredFile } from '../document-events';
import { WorkflowActions } from '../document-read';
import { Hex24Id } from '../ids';
import {
  AccountsPage,
  AccountsPageQuery,
  DocumentPosition,
  DocumentPositionQuery,
  LiveAttachmentsPage,
  LiveAttachmentsQuery,
  PendingRecognitionPage,
  ResolveRequest,
  ResolveResponse,
  WorkflowActionsRequest,
  WorkflowCommandRequest,
  WorkflowCommandResponse,
} from '../internal';
import { internalRoute } from '../internal-route';
import { PageLayout } from '../layout';

/** identity: accounts by `usr-` id or e-mail (an erased account by its id only, inactive). */
export const resolveAccountsRoute = internalRoute({
  method: 'post',
  path: '/internal/v1/resolve',
  body: ResolveRequest,
  output: ResolveResponse,
  problems: [400, 401, 415, 503],
});

/** identity: every account as other services keep it, a page at a time (their read models' rebuild). */
export const accountsPageRoute = internalRoute({
  method: 'get',
  path: '/internal/v1/accounts',
  query: AccountsPageQuery,
  output: AccountsPage,
  problems: [400, 401, 503],
});

/** document: the live documents' files, a page at a time (the files service's attachment index rebuild). */
export const liveAttachmentsRoute = internalRoute({
  method: 'get',
  path: '/internal/v1/live-attachments',
  query: LiveAttachmentsQuery,
  output: LiveAttachmentsPage,
  problems: [400, 401, 503],
});

/** document: a document's form and workflow position at a revision (the webhooks mapping's start). */
export const documentPositionRoute = internalRoute({
  method: 'get',
  path: '/internal/v1/documents/{docId}/position',
  params: z.object({ docId: Hex24Id }),
  query: DocumentPositionQuery,
  output: DocumentPosition,
  problems: [400, 401, 404, 503],
});

/** document: the live documents whose recognition waits, a page at a time (the job queue's rebuild). */
export const pendingRecognitionRoute = internalRoute({
  method: 'get',
  path: '/internal/v1/pending-recognition',
  query: LiveAttachmentsQuery,
  output: PendingRecognitionPage,
  problems: [400, 401, 503],
});

const FileParams = z.object({ fileId: Hex24Id });
const DocParams = z.object({ docId: Hex24Id });

/** The header naming an upload's file (percent-encoded UTF-8). */
export const FILE_NAME_HEADER = 'x-docflow-file-name';

/**
 * files: stores one upload, streamed (its name in FILE_NAME_HEADER, its type in Content-Type). With
 * `allowDupl=false`, 409 when a live document holds the same content (an early answer: the claim
 * decides).
 */
export const storeFileRoute = internalRoute({
  method: 'post',
  path: '/internal/v1/files',
  query: z.object({
    allowDupl: z
      .enum(['true', 'false'], { message: 'must be true or false' })
      .default('true')
      .transform((v) => v === 'true'),
  }),
  body: 'raw',
  output: StoredFile,
  status: 201,
  problems: [400, 401, 409, 413, 503],
});

/** files: the bytes of a stored file (HEAD answers the headers only). */
export const readFileRoute = internalRoute({
  method: 'get',
  path: '/internal/v1/files/{fileId}',
  params: FileParams,
  output: 'raw',
  problems: [400, 401, 404, 503],
});

/** files: discards a stored file no document holds (a create that was then refused). */
export const discardFileRoute = internalRoute({
  method: 'delete',
  path: '/internal/v1/files/{fileId}',
  params: FileParams,
  output: 'empty',
  problems: [400, 401, 409, 503],
});

/**
 * files: a create claims its files for its new document just before it appends DocumentCreated: 409
 * when `allowDupl` is false and a live document holds the content of one of them.
 */
export const claimFilesRoute = internalRoute({
  method: 'post',
  path: '/internal/v1/attachments',
  body: z.object({
    docId: Hex24Id,
    files: z.array(StoredFile.pick({ id: true, sha256: true })),
    allowDupl: z.boolean().default(true),
  }),
  output: 'empty',
  problems: [400, 401, 409, 415, 503],
});

/** files: a create refused after its claim gives the claim up (409 once the document exists). */
export const releaseClaimRoute = internalRoute({
  method: 'delete',
  path: '/internal/v1/attachments/{docId}',
  params: DocParams,
  output: 'empty',
  problems: [400, 401, 409, 503],
});

/** workflow: one command of a document, with its registration; answers the events it appended. */
export const workflowCommandRoute = internalRoute({
  method: 'post',
  path: '/internal/v1/workflows/{docId}/commands',
  params: DocParams,
  body: WorkflowCommandRequest,
  output: WorkflowCommandResponse,
  problems: [400, 401, 403, 404, 409, 412, 415, 422, 503],
});

/** workflow: the commands the caller may send now on a document, decided as the commands are. */
export const workflowActionsRoute = internalRoute({
  method: 'post',
  path: '/internal/v1/workflows/{docId}/actions',
  params: DocParams,
  body: WorkflowActionsRequest,
  output: WorkflowActions,
  problems: [400, 401, 404, 415, 503],
});

/** The page a console shows: a recognised file's page (0-based) of a document. */
const RecognizedPageParams = z.object({
  docId: Hex24Id,
  fileId: Hex24Id,
  pageIdx: z.string().regex(/^\d{1,4}$/),
});

/** recognition: a recognised page's layout (its words with boxes, in reading order); 404 when none was kept. */
export const recognizedPageLayoutRoute = internalRoute({
  method: 'get',
  path: '/internal/v1/recognition/{docId}/files/{fileId}/pages/{pageIdx}/layout',
  params: RecognizedPageParams,
  output: PageLayout,
  problems: [400, 401, 404, 503],
});

/** recognition: a recognised page as a PNG image (rendered once, then kept); 404 for a page the file lacks. */
export const recognizedPageImageRoute = internalRoute({
  method: 'get',
  path: '/internal/v1/recognition/{docId}/files/{fileId}/pages/{pageIdx}/image',
  params: RecognizedPageParams,
  output: 'raw',
  problems: [400, 401, 404, 422, 503],
});
