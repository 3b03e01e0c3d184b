/** Document routes of the contract (v2 only), declared once for validation and the OpenAPI document. */
import { createRoute, z } from '@hono/zod-openapi';
import { AuditVerdict } from '../audit';
import { DocFormRead, ListedDocForm } from '../document-read';
import {
  AnswerRequest,
  CreateDocQuery,
  CreateDocResponse,
  DocForm,
  DocFormCreate,
  DocQuery,
  HistoryEntry,
  HistoryQuery,
  ManageRequest,
  ViewId,
  ViewQuery,
} from '../documents';
import { FormName } from '../forms';
import { Hex24Id } from '../ids';
import { RecoData, RecoValidation } from '../recognition-events';
import {
  etagHeader,
  idempotencyKeyHeader,
  ifMatchHeader,
  ifNoneMatchHeader,
  problemsFor,
  runAsHeader,
} from '../responses';

const DocId = z
  .string()
  .min(8)
  .max(64)
  .openapi({ description: '`_id` (24 hex) or `_id_web` of the document.' });

/**
 * Where a document leads: OpenAPI links from an answer holding one at `$response.body#<doc>` (`''`: the
 * body itself; `'/0'`: a list's first). Clients and the fuzzer's stateful phase follow them.
 */
const documentLinks = (doc: string) => ({
  GetDocument: { operationId: 'getDocument', parameters: { id: `$response.body#${doc}/_id` } },
  GetDocumentByWebId: { operationId: 'getDocument', parameters: { id: `$response.body#${doc}/_id_web` } },
  // As the same principal (run-as), which the open task shown depends on.
  GetDocumentTask: {
    operationId: 'getDocument',
    parameters: {
      id: `$response.body#${doc}/_id`,
      embed: 'docResponse,recoData',
      'header.svc-run-as': '$request.header.svc-run-as',
    },
  },
  DocumentHistory: { operationId: 'documentHistory', parameters: { id: `$response.body#${doc}/_id` } },
  VerifyDocument: { operationId: 'verifyDocument', parameters: { id: `$response.body#${doc}/_id` } },
  ExportDocument: { operationId: 'exportDocument', parameters: { id: `$response.body#${doc}/_id` } },
  DownloadFile: {
    operationId: 'downloadFile',
    parameters: { id: `$response.body#${doc}/_id`, fileId: `$response.body#${doc}/filesList/0/id` },
  },
  ManageDocument: { operationId: 'manageDocument', parameters: { id: `$response.body#${doc}/_id` } },
});

export const createDocumentRoute = createRoute({
  operationId: 'createDocument',
  method: 'post',
  path: '/api/v2/docForm/form/{formName}',
  tags: ['docForm'],
  summary: 'Create a document',
  description:
    'multipart/form-data with the parts `docForm` (JSON: valuesByTags, author, _tags), `docResponse` (JSON: ' +
    'taskstatus 100, 104, 105, 106, 107 or 108; optional) and `files` (any number). Files are streamed, never ' +
    'held whole in memory. A workflow action that could not be applied leaves the document created and says ' +
    'why in `X-Error`.',
  // Documented only: the gateway streams this body through unparsed (see the gateway's create route).
  request: {
    params: z.object({ formName: FormName }),
    query: CreateDocQuery,
    body: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: z.object({
            docForm: DocFormCreate.optional(),
            docResponse: CreateDocResponse.optional(),
            files: z.array(z.string().openapi({ format: 'binary' })).optional(),
          }),
        },
      },
    },
  },
  parameters: [runAsHeader, idempotencyKeyHeader],
  responses: {
    201: {
      description: 'Created. `X-Error` is non-empty when a requested workflow action was not applied.',
      headers: {
        'X-Error': { schema: { type: 'string' }, description: 'Why a workflow action was not applied.' },
      },
      content: { 'application/json': { schema: DocForm } },
      links: documentLinks(''),
    },
    ...problemsFor(400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
  },
});

export const getDocumentRoute = createRoute({
  operationId: 'getDocument',
  method: 'get',
  path: '/api/v2/docForm/{id}',
  tags: ['docForm'],
  summary: 'Read a document',
  request: { params: z.object({ id: DocId }), query: DocQuery },
  parameters: [runAsHeader, ifNoneMatchHeader],
  responses: {
    200: {
      description: 'The document, with what `embed` adds; with `fields`, only the fields named.',
      headers: etagHeader,
      content: { 'application/json': { schema: DocFormRead } },
      links: {
        ...documentLinks(''),
        AnswerTask: {
          operationId: 'answerTask',
          parameters: {
            id: '$response.body#/_id',
            respId: '$response.body#/docResponse/respId',
            'header.svc-run-as': '$request.header.svc-run-as',
          },
        },
        ValidateRecoData: {
          operationId: 'validateRecoData',
          parameters: { id: '$response.body#/_id', recoId: '$response.body#/recoData/0/_id' },
        },
      },
    },
    304: {
      description: 'Not modified: the document is still at the `If-None-Match` revision.',
      headers: etagHeader,
    },
    ...problemsFor(400, 401, 403, 404, 429, 503),
  },
});

export const documentHistoryRoute = createRoute({
  operationId: 'documentHistory',
  method: 'get',
  path: '/api/v2/docForm/{id}/history',
  tags: ['docForm'],
  summary: 'The events of a document, oldest first (extension, for auditors)',
  description:
    'Each entry carries its hash-chain fields (`hash`, `prevHash`), correlation and causation ids and the ' +
    'fields it changed. `Accept: application/x-ndjson` streams the entries one JSON object a line.',
  request: { params: z.object({ id: DocId }), query: HistoryQuery },
  parameters: [runAsHeader],
  responses: {
    200: {
      description: 'The page of events; `svc-total-count` is the number of events in the stream.',
      headers: { 'svc-total-count': { schema: { type: 'integer' } } },
      content: {
        'application/json': { schema: z.array(HistoryEntry) },
        'application/x-ndjson': { schema: HistoryEntry },
      },
    },
    ...problemsFor(400, 401, 403, 404, 429, 503),
  },
});

export const verifyDocumentRoute = createRoute({
  operationId: 'verifyDocument',
  method: 'get',
  path: '/api/v2/docForm/{id}/verify',
  tags: ['audit'],
  summary: 'Verify the hash chain of a document and its attachments (extension, for auditors)',
  description:
    'Recomputes every event hash of the document\u2019s stream and every attachment\u2019s SHA-256 from the ' +
    'blob store. 200 whether or not it verifies: `valid` says, `firstBadRevision` and `reason` say where and why.',
  request: { params: z.object({ id: DocId }) },
  parameters: [runAsHeader],
  responses: {
    200: { description: 'The verdict.', content: { 'application/json': { schema: AuditVerdict } } },
    ...problemsFor(400, 401, 403, 404, 429, 503),
  },
});

export const exportDocumentRoute = createRoute({
  operationId: 'exportDocument',
  method: 'get',
  path: '/api/v2/docForm/{id}/export',
  tags: ['audit'],
  summary: 'Export a document as an audit bundle (extension, for auditors)',
  description:
    'A tar archive, streamed: `manifest.json` (BundleManifest: the document, its history with hashes, its ' +
    'attachments with SHA-256 and size) first, then each attachment as `attachments/<id>`. ' +
    '`pnpm docflow verify <bundle>` verifies it offline.',
  request: { params: z.object({ id: DocId }) },
  parameters: [runAsHeader],
  responses: {
    200: {
      description: 'The bundle.',
      headers: { 'content-disposition': { schema: { type: 'string' } } },
      content: { 'application/x-tar': { schema: z.string().openapi({ format: 'binary' }) } },
    },
    ...problemsFor(400, 401, 403, 404, 429, 503),
  },
});

export const downloadFileRoute = createRoute({
  operationId: 'downloadFile',
  method: 'get',
  path: '/api/v2/docForm/{id}/file/{fileId}',
  tags: ['docForm'],
  summary: 'Download an attachment',
  request: { params: z.object({ id: DocId, fileId: Hex24Id }) },
  parameters: [runAsHeader],
  responses: {
    200: {
      description: "The file's bytes, with `Content-Disposition: attachment; filename*=UTF-8''…`.",
      content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
    },
    ...problemsFor(400, 401, 403, 404, 429, 503),
  },
});

export const viewRoute = createRoute({
  operationId: 'listView',
  method: 'get',
  path: '/api/v2/docForm/view/{viewId}',
  tags: ['docForm'],
  summary: 'List the documents of a view',
  description:
    '`inbox`: documents with an open task for the caller (or for a user whose enabled deputy the caller is); ' +
    '`mydocs`: the caller is the author; `all`: every document the caller may read. Newest first.',
  request: { params: z.object({ viewId: ViewId }), query: ViewQuery },
  parameters: [runAsHeader],
  responses: {
    200: {
      description:
        'The page of documents; `svc-total-count` is the number matching before paging. ' +
        '`svc-total-count-relation`: `eq` when that number is exact, `gte` when it is a lower bound ' +
        '(a search, `q`, of common words only with at least 10,000 matches counts them up to 10,000).',
      headers: {
        'svc-total-count': { schema: { type: 'integer' } },
        'svc-total-count-relation': { schema: { type: 'string', enum: ['eq', 'gte'] } },
      },
      content: { 'application/json': { schema: z.array(ListedDocForm) } },
      links: documentLinks('/0'),
    },
    ...problemsFor(400, 401, 403, 429, 503),
  },
});

export const manageDocumentRoute = createRoute({
  operationId: 'manageDocument',
  method: 'post',
  path: '/api/v2/docForm/{id}/docResponse',
  tags: ['workflow'],
  summary: 'Manage the workflow of a document (taskstatus 100–108, 110, 111)',
  description:
    'For the initiator, or holders of svcAdminDocRW (svcAdminDocRWD for 111); a service account acting ' +
    'without svc-run-as on a document it did not author also needs svcAdminDocsRW. 422: the move is not ' +
    'possible from the current state and nothing changed.',
  request: {
    params: z.object({ id: DocId }),
    body: { required: true, content: { 'application/json': { schema: ManageRequest } } },
  },
  parameters: [runAsHeader, ifMatchHeader, idempotencyKeyHeader],
  responses: {
    200: {
      description: 'Processed: the document as it is now.',
      content: { 'application/json': { schema: DocForm } },
      links: documentLinks(''),
    },
    ...problemsFor(400, 401, 403, 404, 409, 412, 413, 415, 422, 429, 503),
  },
});

export const answerTaskRoute = createRoute({
  operationId: 'answerTask',
  method: 'put',
  path: '/api/v2/docForm/{id}/docResponse/{respId}',
  tags: ['workflow'],
  summary: 'Answer a task (taskstatus 2, 3, 4, 5, 8), optionally correcting valuesByTags and _tags',
  description:
    'For the assignee of the task or the assignee\u2019s enabled deputy. 422: already answered, the stage moved ' +
    'on, or the workflow is suspended, cancelled or blocked; nothing changed.',
  request: {
    params: z.object({ id: DocId, respId: Hex24Id }),
    body: { required: true, content: { 'application/json': { schema: AnswerRequest } } },
  },
  parameters: [runAsHeader, ifMatchHeader, idempotencyKeyHeader],
  responses: {
    200: {
      description: 'Processed: the document as it is now.',
      content: { 'application/json': { schema: DocForm } },
      links: documentLinks(''),
    },
    ...problemsFor(400, 401, 403, 404, 409, 412, 413, 415, 422, 429, 503),
  },
});

export const validateRecoDataRoute = createRoute({
  operationId: 'validateRecoData',
  method: 'put',
  path: '/api/v2/docForm/{id}/recoData/{recoId}',
  tags: ['recognition'],
  summary: 'Validate a recognised part by hand (extension): replace its values, mark it validated',
  description:
    'Needs write access to the document: its author, a participant of the running phase, or svcAdminDocsRW.',
  request: {
    params: z.object({ id: DocId, recoId: Hex24Id }),
    body: { required: true, content: { 'application/json': { schema: RecoValidation } } },
  },
  parameters: [runAsHeader, ifMatchHeader],
  responses: {
    200: { description: 'The validated entry.', content: { 'application/json': { schema: RecoData } } },
    ...problemsFor(400, 401, 403, 404, 409, 412, 413, 415, 429, 503),
  },
});
