/** Bodies of the services' internal APIs (reached only with the internal token). */
import { z } from '@hono/zod-openapi';
import { type DocPhase, type DocStatus, STATE_CODES, STATUS_CODES } from './codes';
import { EventEnvelope } from './envelope';
import { WorkflowConfig } from './forms';
import { Hex24Id, Timestamp, UsrId } from './ids';
import { Role } from './roles';

/** A person's deputy; with `from`/`to` the person is absent then and new tasks go to the deputy. */
const DeputyFacts = z.object({
  id: UsrId,
  enabled: z.boolean(),
  from: Timestamp.optional(),
  to: Timestamp.optional(),
});

/** identity: `POST /internal/v1/resolve` — accounts by `usr-` id or e-mail. */
export const ResolveRequest = z.strictObject({ refs: z.array(z.string().min(3).max(254)).max(500) });
export const ResolvedAccount = z.object({
  id: UsrId,
  kind: z.enum(['person', 'service']),
  active: z.boolean(),
  deputy: DeputyFacts.nullable(),
  /**
   * How people read the account: a person's first and last name, `[erased]` once erased, a service
   * account's name. Optional: an identity older than it does not send it.
   */
  name: z.string().optional(),
  /**
   * The revision of the account's newest event that the bus carries (a private one is not counted).
   * Optional: an identity older than it does not send it.
   */
  publishedRev: z.number().int().min(1).optional(),
});
export type ResolvedAccount = z.infer<typeof ResolvedAccount>;
/** Only the refs that name an account appear. */
export const ResolveResponse = z.object({ accounts: z.record(z.string(), ResolvedAccount) });

/**
 * identity → gateway, on the answer to an account command (create, patch, erase): the revision of the
 * account's newest event on the bus, which the gateway's read model waits for. The answer's `_rev` also
 * counts a private event (a password change), which never reaches the bus. The gateway removes it.
 */
export const PUBLISHED_REVISION_HEADER = 'x-docflow-published-rev';

/** workflow: `POST /internal/v1/workflows/{docId}/commands` — one command, with the document's registration. */
export const WorkflowCommandRequest = z.strictObject({
  registration: z.object({ form: z.string(), author: UsrId, workflow: WorkflowConfig }),
  /**
   * The revision of `workflow-<docId>` the caller's copy of the document reflects (an `If-Match` on
   * the document): checked on the state the command is decided on, so of concurrent commands sent with
   * the same one, one is appended and the others are refused with 412.
   */
  expectedRevision: z.number().int().min(0).optional(),
  command: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('create'), taskstatus: z.number().int() }),
    z.object({ kind: z.literal('manage'), taskstatus: z.number().int() }),
    z.object({
      kind: z.literal('answer'),
      taskstatus: z.number().int(),
      respId: Hex24Id,
      content: z.string().max(100_000),
    }),
    /** `to`: a `usr-` id or an e-mail, resolved by the workflow service. */
    z.object({ kind: z.literal('reassign'), respId: Hex24Id, to: z.string().max(254), reason: z.string() }),
  ]),
});
export type WorkflowCommandRequest = z.infer<typeof WorkflowCommandRequest>;

/** workflow: `POST /internal/v1/workflows/{docId}/actions` — what the caller may do now (WorkflowActions). */
export const WorkflowActionsRequest = z.strictObject({
  registration: WorkflowCommandRequest.shape.registration,
});
export type WorkflowActionsRequest = z.infer<typeof WorkflowActionsRequest>;

/** The events the command appended to `workflow-<docId>`, with their ids (for deduplication). */
export const WorkflowCommandResponse = z.object({
  events: z.array(z.object({ id: z.uuid(), type: z.string(), data: z.record(z.string(), z.unknown()) })),
});
export type WorkflowCommandResponse = z.infer<typeof WorkflowCommandResponse>;

/**
 * identity: `GET /internal/v1/accounts` — one page of the accounts (in creation order), each with what
 * other services keep of it, as of the revision of its stream it was read at. The gateway's accounts
 * and the document service's deputies are rebuilt from it into an empty table; bus events then apply
 * only when newer than a row's revision.
 */
export const AccountsPageQuery = z.object({
  first: z.string().regex(/^\d+$/).default('0').transform(Number),
  pageSize: z.string().regex(/^\d+$/).default('500').transform(Number).pipe(z.number().int().min(1).max(500)),
});
export const PersonalTokenFacts = z.object({
  id: Hex24Id,
  name: z.string(),
  keyHash: z.string(),
  created: z.string(),
  expires: z.string().nullable(),
});
export type PersonalTokenFacts = z.infer<typeof PersonalTokenFacts>;
export const AccountFacts = z.object({
  id: UsrId,
  kind: z.enum(['person', 'service']),
  active: z.boolean(),
  roles: z.array(Role),
  /** The hash of a service account's API key (what the bus carries in ApiKeyIssued), else null. */
  keyHash: z.string().nullable(),
  deputy: DeputyFacts.nullable(),
  /** A person's live personal access tokens, each with the hash of its token (absent: none). */
  personalTokens: z.array(PersonalTokenFacts).optional(),
  revision: z.number().int().min(1),
});
export type AccountFacts = z.infer<typeof AccountFacts>;
export const AccountsPage = z.object({
  accounts: z.array(AccountFacts),
  /** `first` of the next page; null after the last. */
  next: z.number().int().min(0).nullable(),
});
export type AccountsPage = z.infer<typeof AccountsPage>;

/**
 * document: `GET /internal/v1/live-attachments` — one page of the live (not deleted) documents, by id,
 * with the content hash of each of their files: the files service rebuilds its attachment index from
 * it (what `allowDupl=false` checks) when that is new or lost.
 */
export const LiveAttachmentsQuery = z.object({
  after: Hex24Id.optional(),
  pageSize: z.string().regex(/^\d+$/).default('500').transform(Number).pipe(z.number().int().min(1).max(500)),
});
export const LiveAttachmentsPage = z.object({
  documents: z.array(
    z.object({ id: Hex24Id, files: z.array(z.object({ id: Hex24Id, sha256: z.string() })) }),
  ),
  /** `after` of the next page; null after the last. */
  next: Hex24Id.nullable(),
});
export type LiveAttachmentsPage = z.infer<typeof LiveAttachmentsPage>;

/**
 * document: `GET /internal/v1/documents/{docId}/position?rev=N` — the document's form and workflow
 * position as of its revision N (deleted or not). The webhooks service's mapping starts from it for a
 * document it does not remember (its table lost, or the document older than the service).
 */
export const DocumentPositionQuery = z.object({
  rev: z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(1)),
});
export const DocumentPosition = z.object({
  form: z.string(),
  phase: z.enum(Object.keys(STATE_CODES) as [DocPhase, ...DocPhase[]]),
  status: z.enum(Object.keys(STATUS_CODES) as [DocStatus, ...DocStatus[]]),
  step: z.number().int().min(0),
  iteration: z.number().int().min(0),
});
export type DocumentPosition = z.infer<typeof DocumentPosition>;

/**
 * document: `GET /internal/v1/pending-recognition` — one page of the live documents, by id, whose
 * recognition was asked and that have a file without a recorded result: each with its
 * `DocumentCreated` as the bus carries it and those files. The recognition service queues their jobs
 * again when its job queue is new or lost (same query as the live attachments).
 */
export const PendingRecognitionPage = z.object({
  documents: z.array(z.object({ created: EventEnvelope, pending: z.array(Hex24Id) })),
  /** `after` of the next page; null after the last. */
  next: Hex24Id.nullable(),
});
export type PendingRecognitionPage = z.infer<typeof PendingRecognitionPage>;
