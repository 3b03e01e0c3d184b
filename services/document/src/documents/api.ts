/** The document routes the gateway forwards: create, read (fields, embed, rev), history, download. */
import {
  AnswerRequest,
  CreateDocQuery,
  DocQuery,
  docFormStream,
  FormName,
  Hex24Id,
  ManageRequest,
  ReassignRequest,
  RecoValidation,
} from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { createKeyedLock } from '@docflow/kit';
import { commandMetadata, executeCommand, loadAggregate } from '@docflow/kit/eventsourcing';
import { parseWith, problems, readJson, type ServiceClient, type ServiceEnv } from '@docflow/kit/http';
import { openTaskFor, openTasks } from '@docflow/workflow-model';
import { type Context, Hono } from 'hono';
import { revisionAsOf } from '../audit/as-of';
import { downloadFile, filesCallAs } from '../calls/files-calls';
import { accountNames, type IdentityCalls } from '../calls/identity-calls';
import { applyWorkflowCommand, toDocResponse, type WorkflowCalls } from '../calls/workflow-commands';
import { loadForm } from '../forms/api';
import { createFingerprint, hashFile } from '../idempotency/create-fingerprint';
import { idempotent, jsonFingerprint } from '../idempotency/middleware';
import type { IdempotencyStore } from '../idempotency/store';
import { canDownload } from './access';
import { documentActions } from './actions';
import { checkValuesAgainstForm, decideUpdateFields, decideValidateReco } from './businessLogic';
import { commentRoutes } from './comments';
import { createDocument, X_ERROR_HEADER } from './create';
import { type DocState, docAggregate } from './docForm';
import { parseCreateMultipart } from './multipart';
import { namedAccounts } from './named-accounts';
import { etagOf, notModified, requireIfMatch } from './preconditions';
import type { DocReader } from './readable';
import { selectFields, toDocForm, toRecoData } from './representation';

export interface DocumentsApiDeps {
  store: EventStore;
  identity: ServiceClient;
  files: ServiceClient;
  workflow: ServiceClient;
  internalToken: string;
  /** The largest create body, every file together. */
  maxCreateBytes: number;
  /** Reads a document as the caller may (deputies from identity's events). */
  reader: DocReader;
  /** The answers kept for `Idempotency-Key`s. */
  idempotency: IdempotencyStore;
}

/**
 * The JSON of a document as GET answers it without `embed` or `fields`, kept with the folded state it
 * was made of: the fold cache hands out the same frozen state until the stream moves on.
 */
const plainJson = new WeakMap<DocState, string>();
function plainDocFormJson(doc: DocState): string {
  let json = plainJson.get(doc);
  if (json === undefined) {
    json = JSON.stringify(toDocForm(doc));
    plainJson.set(doc, json);
  }
  return json;
}

export function documentsApi(deps: DocumentsApiDeps): Hono<ServiceEnv> {
  const { store } = deps;
  const { deputiesOfCaller, readableDoc } = deps.reader;
  const calls: WorkflowCalls & IdentityCalls = {
    workflow: deps.workflow,
    identity: deps.identity,
    internalToken: deps.internalToken,
  };
  const app = new Hono<ServiceEnv>();
  // Before the routes they guard: a retry with a used key is answered here, with the document as the
  // first answer had it (each of these routes answers it with c.json).
  const documentAt = async (id: string, rev: number) =>
    JSON.stringify(toDocForm((await loadAggregate(store, docFormStream(id), docAggregate, rev)).state));
  const idempotentJson = idempotent({ store: deps.idempotency, documentAt, fingerprint: jsonFingerprint });
  app.post(
    '/api/v2/docForm/form/:formName',
    idempotent({
      store: deps.idempotency,
      documentAt,
      handlerRecords: true,
      fingerprint: async (c) =>
        createFingerprint(
          c.req.raw,
          await parseCreateMultipart(c.req.raw, hashFile, { maxBodyBytes: deps.maxCreateBytes }),
        ),
    }),
  );
  app.post('/api/v2/docForm/:id/docResponse', idempotentJson);
  app.put('/api/v2/docForm/:id/docResponse/:respId', idempotentJson);
  app.post('/api/v2/docForm/:id/docResponse/:respId/reassign', idempotentJson);
  const filesCall = (c: Context<ServiceEnv>) => filesCallAs(deps.files, deps.internalToken, c);
  const pinnedWrites = createKeyedLock();
  /**
   * Runs `write` on `doc`; with If-Match, alone among this document's If-Match writes in this process,
   * on the document read again, until its change is in the document. A workflow command's
   * precondition holds at the workflow stream's append and a validation's at the document stream's:
   * without this a move and a validation naming one revision could both act (issue 29). Document
   * services sharing one event store do not wait for each other here.
   */
  const pinnedWrite = <T>(c: Context<ServiceEnv>, doc: DocState, write: (doc: DocState) => Promise<T>) =>
    c.req.header('if-match') === undefined
      ? write(doc)
      : pinnedWrites.run(doc.id, async () => write(await readableDoc(c, doc.id)));

  app.post('/api/v2/docForm/form/:formName', async (c) => {
    const { doc, xError } = await createDocument(
      { store, calls, files: filesCall(c), maxCreateBytes: deps.maxCreateBytes },
      {
        formName: parseWith('path', FormName, c.req.param('formName')),
        query: parseWith('query', CreateDocQuery, c.req.query()),
        request: c.req.raw,
        principal: c.var.principal,
        ids: c.var,
        log: c.var.log,
      },
    );
    if (xError) c.header(X_ERROR_HEADER, xError);
    return c.json(toDocForm(doc), 201);
  });

  app.get('/api/v2/docForm/:id', async (c) => {
    const query = parseWith('query', DocQuery, c.req.query());
    let doc = await readableDoc(c, c.req.param('id'));
    // What the caller may do is said of the document as it is now, also beside an earlier revision.
    const current = doc;
    if (query.rev !== undefined && query.asOf !== undefined)
      throw problems.badRequest('give rev or asOf, not both');
    const rev = query.asOf === undefined ? query.rev : await revisionAsOf(store, doc.id, query.asOf);
    if (rev !== undefined) {
      if (rev > doc.rev) throw problems.notFound(`the document has no revision ${rev}`);
      doc = (await loadAggregate(store, docFormStream(doc.id), docAggregate, rev)).state;
    }
    c.header('etag', etagOf(doc.rev));
    if (notModified(c.req.header('if-none-match'), doc.rev)) return c.body(null, 304);
    const embed = query.embed ?? [];
    if (!embed.length && !query.fields?.length)
      return c.body(plainDocFormJson(doc), 200, { 'content-type': 'application/json' });
    const body: Record<string, unknown> = { ...toDocForm(doc) };
    if (embed.includes('docResponse')) {
      const principal = c.var.principal;
      const open = openTasks(doc.workflow).map((t) => t.assignee);
      const deputies = open.includes(principal.subject) ? {} : deputiesOfCaller(principal);
      const task = openTaskFor(doc.workflow, principal.subject, deputies);
      body.docResponse = task ? toDocResponse(task) : null;
    }
    if (embed.includes('recoData') || embed.includes('recoResult')) body.recoData = toRecoData(doc);
    if (embed.includes('actions'))
      body.actions = await documentActions(calls, { principal: c.var.principal, ids: c.var }, current);
    if (embed.includes('names'))
      body.names = Object.fromEntries(
        await accountNames(calls, { principal: c.var.principal, ids: c.var }, namedAccounts(doc)),
      );
    const embedded = embed.flatMap((e) => (e === 'recoResult' ? ['recoData'] : [e]));
    return c.json(selectFields(body, query.fields, embedded));
  });

  app.post('/api/v2/docForm/:id/docResponse', async (c) => {
    const read = await readableDoc(c, c.req.param('id'));
    const { docResponse } = await readJson(c, ManageRequest);
    const after = await pinnedWrite(c, read, (doc) =>
      applyWorkflowCommand(
        store,
        calls,
        { principal: c.var.principal, ids: c.var },
        doc,
        { kind: 'manage', taskstatus: docResponse.taskstatus },
        requireIfMatch(c.req.header('if-match'), doc.rev),
      ),
    );
    return c.json(toDocForm(after));
  });

  app.put('/api/v2/docForm/:id/docResponse/:respId', async (c) => {
    const read = await readableDoc(c, c.req.param('id'));
    const respId = parseWith('path', Hex24Id, c.req.param('respId'));
    const { docForm, docResponse } = await readJson(c, AnswerRequest);
    const after = await pinnedWrite(c, read, async (doc) => {
      const pinned = requireIfMatch(c.req.header('if-match'), doc.rev);
      const form = docForm ? (await loadForm(store, doc.form)).definition : null;
      // Values are checked before the answer, so a bad value changes nothing at all.
      if (docForm && form) checkValuesAgainstForm(docForm.valuesByTags ?? {}, form);
      const answered = await applyWorkflowCommand(
        store,
        calls,
        { principal: c.var.principal, ids: c.var },
        doc,
        { kind: 'answer', respId, taskstatus: docResponse.taskstatus, content: docResponse.content },
        pinned,
      );
      if (!docForm || !form) return answered;
      const result = await executeCommand(
        store,
        docFormStream(doc.id),
        docAggregate,
        (state) =>
          decideUpdateFields({ valuesByTags: docForm.valuesByTags, tags: docForm._tags }, form, state),
        commandMetadata(c.var.principal, c.var),
      );
      return result.state;
    });
    return c.json(toDocForm(after));
  });

  app.post('/api/v2/docForm/:id/docResponse/:respId/reassign', async (c) => {
    const read = await readableDoc(c, c.req.param('id'));
    const respId = parseWith('path', Hex24Id, c.req.param('respId'));
    const { to, reason } = await readJson(c, ReassignRequest);
    const ctx = { principal: c.var.principal, ids: c.var };
    const after = await pinnedWrite(c, read, (doc) =>
      applyWorkflowCommand(
        store,
        calls,
        ctx,
        doc,
        { kind: 'reassign', respId, to, reason },
        requireIfMatch(c.req.header('if-match'), doc.rev),
      ),
    );
    return c.json(toDocForm(after));
  });

  commentRoutes(app, store, deps.reader);

  app.put('/api/v2/docForm/:id/recoData/:recoId', async (c) => {
    const doc = await readableDoc(c, c.req.param('id'));
    const recoId = parseWith('path', Hex24Id, c.req.param('recoId'));
    const { valuesByTags, copyToFields } = await readJson(c, RecoValidation);
    const ifMatch = c.req.header('if-match');
    const principal = c.var.principal;
    const form = (await loadForm(store, doc.form)).definition;
    const result = await pinnedWrite(c, doc, () =>
      executeCommand(
        store,
        docFormStream(doc.id),
        docAggregate,
        (state) => {
          // Checked against the state the change is decided on, so a concurrent change cannot slip between.
          requireIfMatch(ifMatch, state.rev);
          return decideValidateReco({ recoId, valuesByTags, copyToFields, by: principal }, form, state);
        },
        commandMetadata(principal, c.var),
      ),
    );
    return c.json(toRecoData(result.state).find((e) => e._id === recoId));
  });

  app.get('/api/v2/docForm/:id/file/:fileId', async (c) => {
    const doc = await readableDoc(c, c.req.param('id'));
    const fileId = c.req.param('fileId');
    if (!canDownload(doc, fileId)) throw problems.notFound('no such file on this document');
    return downloadFile(filesCall(c), fileId);
  });

  return app;
}
