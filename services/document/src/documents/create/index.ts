/**
 * Creating a document, one use case: each step below is a function of its own file (with its own
 * test), in the order they run. A create refused at any point keeps no attachment and no file
 * (docs/decisions.md, "Creates are all-or-nothing for files"); the workflow action asked with it is
 * run once the document exists, and a refused action is answered in `X-Error`, not as a failure.
 */
import type { CreateDocQuery } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { type Logger, newHexId } from '@docflow/kit';
import { commandMetadata } from '@docflow/kit/eventsourcing';
import type { z } from 'zod';
import type { FilesCall } from '../../calls/files-calls';
import type { CallContext, IdentityCalls } from '../../calls/identity-calls';
import { withParticipantIds } from '../../calls/participant-ids';
import type { WorkflowCalls } from '../../calls/workflow-commands';
import { createFingerprint } from '../../idempotency/create-fingerprint';
import { recordFingerprint } from '../../idempotency/middleware';
import type { DocState } from '../docForm';
import { appendCreated } from './append';
import { checkAuthor } from './check-author';
import { createFiles } from './create-files';
import { decideNewDocument } from './decide';
import { settleFailedCreate } from './give-up';
import { loadCreateForm } from './load-form';
import { type CreateParts, readParts } from './read-parts';
import { startWorkflow } from './start-workflow';
import { streamParts } from './stream-parts';

export { X_ERROR_HEADER } from './x-error';

export interface CreateDocumentDeps {
  store: EventStore;
  calls: WorkflowCalls & IdentityCalls;
  /** The files service, called as the request's principal. */
  files: FilesCall;
  /** The largest create body, every file together. */
  maxCreateBytes: number;
}

export interface CreateDocumentInput extends CallContext {
  formName: string;
  query: z.infer<typeof CreateDocQuery>;
  /** The multipart request, its body not read yet. */
  request: Request;
  log: Logger;
}

export interface CreatedDocument {
  doc: DocState;
  /** Why the workflow action asked with the create was not applied (the `X-Error` header). */
  xError?: string;
}

/** @example const { doc, xError } = await createDocument(deps, { formName, query, request, principal, ids, log }); */
export async function createDocument(
  deps: CreateDocumentDeps,
  input: CreateDocumentInput,
): Promise<CreatedDocument> {
  const form = await loadCreateForm(deps.store, input.formName);
  const id = newHexId();
  // One clock reading: datecreated (the event's timestamp) and datedue derive from it.
  const now = new Date();
  const files = createFiles(deps.files, id, input.query.allowDupl, input.log);
  let appending = false;
  let created: DocState;
  let action: CreateParts['action'];
  try {
    const { parts, identities } = await streamParts(input.request, files, deps.maxCreateBytes);
    recordFingerprint(input.request, createFingerprint(input.request, { ...parts, files: identities }));
    const read = readParts(parts);
    action = read.action;
    const author = await checkAuthor(deps.calls, input, read.docForm.author);
    const command = {
      id,
      // Resolved again: an account made after the form was defined is named by id, not e-mail.
      form: await withParticipantIds(deps.calls, input, form),
      author,
      valuesByTags: read.docForm.valuesByTags,
      tags: read.docForm._tags,
      files: parts.files,
      now,
      idp: { idpLangs: input.query.idpLangs, idpFrpr: input.query.idpFrpr },
    };
    decideNewDocument(command);
    // The claim is the last step before the append: the files service records the attachments
    // (refusing a duplicate under allowDupl=false in the same decision), so its orphan sweeper
    // never takes the files of a document whose service stopped before its relay published it.
    await files.claim(parts.files);
    appending = true;
    created = await appendCreated(deps.store, command, commandMetadata(input.principal, input.ids, now));
  } catch (err) {
    await settleFailedCreate(deps.store, err, { docId: id, appending, files, log: input.log });
    throw err;
  }
  if (!action) return { doc: created };
  return startWorkflow(deps.store, deps.calls, input, created, action.taskstatus);
}
