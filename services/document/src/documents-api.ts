/** The document routes the gateway forwards: create, read (fields, embed, rev), history, download. */
import {
  AnswerRequest,
  CreateDocQuery,
  CreateDocResponse,
  DocFormCreate,
  DocQuery,
  docFormStream,
  FormName,
  Hex24Id,
  ManageRequest,
  RecoValidation,
  type StoredFile,
} from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { newHexId } from '@docflow/kit';
import { commandMetadata, executeCommand, loadAggregate } from '@docflow/kit/eventsourcing';
import {
  parseWith,
  problems,
  readJson,
  type ServiceClient,
  type ServiceEnv,
  toProblemError,
} from '@docflow/kit/http';
import { openTaskFor, openTasks } from '@docflow/workflow-model';
import { type Context, Hono } from 'hono';
import type { z } from 'zod';
import { authorOf, canDownload } from './access';
import { requireAppendable } from './append-bound';
import { revisionAsOf } from './audit/as-of';
import {
  checkValuesAgainstForm,
  decideCreate,
  decideUpdateFields,
  decideValidateReco,
} from './businessLogic';
import { appendWroteNothing, createFiles } from './create-files';
import { type DocState, docAggregate, initialDoc } from './docForm';
import { downloadFile, filesCallAs } from './files-calls';
import { loadForm } from './forms/api';
import { createFingerprint, type FileIdentity, hashFile } from './idempotency/create-fingerprint';
import { idempotent, jsonFingerprint, recordFingerprint } from './idempotency/middleware';
import type { IdempotencyStore } from './idempotency/store';
import { type IdentityCalls, requireAccount } from './identity-calls';
import { type IncomingFile, type ParsedCreate, parseCreateMultipart } from './multipart';
import { withParticipantIds } from './participant-ids';
import { etagOf, notModified, requireIfMatch } from './preconditions';
import type { DocReader } from './readable';
import { selectFields, toDocForm, toRecoData } from './representation';
import {
  recordWorkflowFacts,
  runWorkflowCommand,
  toDocResponse,
  type WorkflowCalls,
} from './workflow-commands';

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

/** A JSON part of the multipart body, validated; an absent part stands for `fallback`. */
function parseJsonPart<S extends z.ZodType>(
  name: string,
  text: string | undefined,
  schema: S,
  fallback: unknown,
): z.infer<S> {
  let value: unknown = fallback;
  if (text !== undefined) {
    try {
      value = JSON.parse(text);
    } catch {
      throw problems.badRequest(`the ${name} part is not valid JSON`);
    }
  }
  return parseWith(name, schema, value);
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
          c,
          await parseCreateMultipart(c.req.raw, hashFile, { maxBodyBytes: deps.maxCreateBytes }),
        ),
    }),
  );
  app.post('/api/v2/docForm/:id/docResponse', idempotentJson);
  app.put('/api/v2/docForm/:id/docResponse/:respId', idempotentJson);
  const filesCall = (c: Context<ServiceEnv>) => filesCallAs(deps.files, deps.internalToken, c);

  app.post('/api/v2/docForm/form/:formName', async (c) => {
    const formName = parseWith('path', FormName, c.req.param('formName'));
    const query = parseWith('query', CreateDocQuery, c.req.query());
    const form = (await loadForm(store, formName)).definition;
    if (!form) throw problems.notFound(`no form ${formName}`);

    const id = newHexId();
    // Every file stored for this request and its claim, so that a create refused at any point keeps
    // none of them (what a crash leaves behind, the files service's sweeper collects).
    const files = createFiles(filesCall(c), id, query.allowDupl, c.var.log);
    const identities: FileIdentity[] = [];
    const upload = async (file: IncomingFile): Promise<StoredFile> => {
      const storedFile = await files.store(file);
      identities.push({ fileName: file.fileName, contentType: file.contentType, sha256: storedFile.sha256 });
      return storedFile;
    };
    // One clock reading: datecreated (the event's timestamp) and datedue derive from it.
    const now = new Date();
    let appending = false;
    let parts: ParsedCreate<StoredFile>;
    let action: z.infer<typeof CreateDocResponse> | undefined;
    let doc: DocState;
    try {
      parts = await parseCreateMultipart(c.req.raw, upload, { maxBodyBytes: deps.maxCreateBytes });
      recordFingerprint(c, createFingerprint(c, { ...parts, files: identities }));
      const docForm = parseJsonPart('docForm', parts.docForm, DocFormCreate, {});
      action =
        parts.docResponse === undefined
          ? undefined
          : parseJsonPart('docResponse', parts.docResponse, CreateDocResponse, {});
      const author = authorOf(c.var.principal, docForm.author);
      const callContext = { principal: c.var.principal, ids: c.var };
      await requireAccount(calls, callContext, author, 'docForm.author');
      const command = {
        id,
        // Resolved again: an account made after the form was defined is named by id, not e-mail.
        form: await withParticipantIds(calls, callContext, form),
        author,
        valuesByTags: docForm.valuesByTags,
        tags: docForm._tags,
        files: parts.files,
        now,
        idp: { idpLangs: query.idpLangs, idpFrpr: query.idpFrpr },
      };
      // Decided, and held to the append's size bound, on the new document before its files are claimed.
      requireAppendable(decideCreate(command, initialDoc));
      // The claim is the last step before the append: the files service records the attachments
      // (refusing a duplicate under allowDupl=false in the same decision), so its orphan sweeper
      // never takes the files of a document whose service stopped before its relay published it.
      await files.claim(parts.files);
      appending = true;
      const created = await executeCommand(
        store,
        docFormStream(id),
        docAggregate,
        (state) => decideCreate(command, state),
        commandMetadata(c.var.principal, c.var, now),
      );
      doc = created.state;
    } catch (err) {
      // An append whose outcome is unknown may have created the document: its files stay attached.
      const exists = async () => (await loadAggregate(store, docFormStream(id), docAggregate)).state.exists;
      if (!appending || (await appendWroteNothing(err, exists))) await files.giveUp();
      else c.var.log.warn({ docId: id }, 'a create append failed and may have been written; its files stay');
      throw err;
    }
    if (action) {
      // The document exists whatever happens to the action; a refused action is reported in X-Error.
      try {
        const facts = await runWorkflowCommand(calls, { principal: c.var.principal, ids: c.var }, doc, {
          kind: 'create',
          taskstatus: action.taskstatus,
        });
        doc = await recordWorkflowFacts(store, id, facts, commandMetadata(c.var.principal, c.var));
      } catch (err) {
        const problem = toProblemError(err);
        c.header(
          'x-error',
          `workflow action ${action.taskstatus} not applied: ${problem.detail ?? problem.title}`,
        );
      }
    }
    return c.json(toDocForm(doc), 201);
  });

  app.get('/api/v2/docForm/:id', async (c) => {
    const query = parseWith('query', DocQuery, c.req.query());
    let doc = await readableDoc(c, c.req.param('id'));
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
      body.docResponse = task ? toDocResponse(task, doc) : null;
    }
    if (embed.includes('recoData') || embed.includes('recoResult')) body.recoData = toRecoData(doc);
    const embedded = embed.flatMap((e) => (e === 'recoResult' ? ['recoData'] : [e]));
    return c.json(selectFields(body, query.fields, embedded));
  });

  app.post('/api/v2/docForm/:id/docResponse', async (c) => {
    const doc = await readableDoc(c, c.req.param('id'));
    const { docResponse } = await readJson(c, ManageRequest);
    const pinned = requireIfMatch(c.req.header('if-match'), doc.rev);
    const facts = await runWorkflowCommand(
      calls,
      { principal: c.var.principal, ids: c.var },
      doc,
      { kind: 'manage', taskstatus: docResponse.taskstatus },
      pinned,
    );
    const after = await recordWorkflowFacts(store, doc.id, facts, commandMetadata(c.var.principal, c.var));
    return c.json(toDocForm(after));
  });

  app.put('/api/v2/docForm/:id/docResponse/:respId', async (c) => {
    const doc = await readableDoc(c, c.req.param('id'));
    const respId = parseWith('path', Hex24Id, c.req.param('respId'));
    const { docForm, docResponse } = await readJson(c, AnswerRequest);
    const pinned = requireIfMatch(c.req.header('if-match'), doc.rev);
    const form = docForm ? (await loadForm(store, doc.form)).definition : null;
    // Values are checked before the answer, so a bad value changes nothing at all.
    if (docForm && form) checkValuesAgainstForm(docForm.valuesByTags ?? {}, form);
    const facts = await runWorkflowCommand(
      calls,
      { principal: c.var.principal, ids: c.var },
      doc,
      { kind: 'answer', respId, taskstatus: docResponse.taskstatus, content: docResponse.content },
      pinned,
    );
    const metadata = commandMetadata(c.var.principal, c.var);
    let after = await recordWorkflowFacts(store, doc.id, facts, metadata);
    if (docForm && form) {
      const result = await executeCommand(
        store,
        docFormStream(doc.id),
        docAggregate,
        (state) =>
          decideUpdateFields({ valuesByTags: docForm.valuesByTags, tags: docForm._tags }, form, state),
        metadata,
      );
      after = result.state;
    }
    return c.json(toDocForm(after));
  });

  app.put('/api/v2/docForm/:id/recoData/:recoId', async (c) => {
    const doc = await readableDoc(c, c.req.param('id'));
    const recoId = parseWith('path', Hex24Id, c.req.param('recoId'));
    const { valuesByTags } = await readJson(c, RecoValidation);
    const ifMatch = c.req.header('if-match');
    const principal = c.var.principal;
    const form = (await loadForm(store, doc.form)).definition;
    const result = await executeCommand(
      store,
      docFormStream(doc.id),
      docAggregate,
      (state) => {
        // Checked against the state the change is decided on, so a concurrent change cannot slip between.
        requireIfMatch(ifMatch, state.rev);
        return decideValidateReco({ recoId, valuesByTags, by: principal }, form, state);
      },
      commandMetadata(principal, c.var),
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
