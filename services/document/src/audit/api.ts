/**
 * The auditors' routes of a document: its history (paged, or streamed as NDJSON; each entry also in
 * words), the verification of its hash chain and attachments, and its export bundle. Same read rights
 * as the document.
 */
import { bundleStream, HASHING, recordedAttachments } from '@docflow/audit';
import {
  BUNDLE_ATTACHMENTS_DIR,
  BUNDLE_FORMAT,
  type BundleManifest,
  docFormStream,
  HistoryQuery,
} from '@docflow/contracts';
import { toDocForm } from '@docflow/document-model';
import type { EventStore } from '@docflow/eventstore';
import { parseWith, type ServiceClient, type ServiceEnv } from '@docflow/kit/http';
import { type Context, Hono } from 'hono';
import { filesCallAs, readStoredFile } from '../calls/files-calls';
import type { DocReader } from '../documents/readable';
import { foldHistory } from './history';
import { summarisedPage } from './summaries';
import { verifyDocument } from './verify';

export interface AuditApiDeps {
  store: EventStore;
  files: ServiceClient;
  identity: ServiceClient;
  internalToken: string;
  reader: DocReader;
}

const NDJSON = 'application/x-ndjson';

export function auditApi(deps: AuditApiDeps): Hono<ServiceEnv> {
  const { store, reader } = deps;
  const app = new Hono<ServiceEnv>();
  const filesCall = (c: Context<ServiceEnv>) => filesCallAs(deps.files, deps.internalToken, c);
  const readEvents = async (c: Context<ServiceEnv>) => {
    const doc = await reader.readableDoc(c, c.req.param('id') ?? '');
    return { doc, events: await store.readStream(docFormStream(doc.id)) };
  };

  app.get('/api/v2/docForm/:id/history', async (c) => {
    const query = parseWith('query', HistoryQuery, c.req.query());
    const { events } = await readEvents(c);
    const { entries } = foldHistory(events);
    const end = query.pageSize === undefined ? undefined : query.first + query.pageSize;
    const ctx = { principal: c.var.principal, ids: c.var };
    const page = await summarisedPage(deps, ctx, c.var.log, entries, { first: query.first, end });
    c.header('svc-total-count', String(entries.length));
    if (!(c.req.header('accept') ?? '').includes(NDJSON)) return c.json(page);
    const lines = page.values();
    const body = new ReadableStream<string>({
      pull(controller) {
        const next = lines.next();
        if (next.done) controller.close();
        else controller.enqueue(`${JSON.stringify(next.value)}\n`);
      },
    }).pipeThrough(new TextEncoderStream());
    return c.body(body, 200, { 'content-type': NDJSON });
  });

  app.get('/api/v2/docForm/:id/verify', async (c) => {
    const { events } = await readEvents(c);
    const call = filesCall(c);
    return c.json(await verifyDocument(events, (fileId) => readStoredFile(call, fileId)));
  });

  app.get('/api/v2/docForm/:id/export', async (c) => {
    const { events } = await readEvents(c);
    const { entries, state } = foldHistory(events);
    const call = filesCall(c);
    const attachments = recordedAttachments(events).map((a) => ({
      ...a,
      path: `${BUNDLE_ATTACHMENTS_DIR}${a.id}`,
    }));
    const manifest: BundleManifest = {
      format: BUNDLE_FORMAT,
      exportedAt: new Date().toISOString(),
      hashing: HASHING,
      document: toDocForm(state),
      history: entries,
      attachments,
    };
    const files = attachments.map((a) => ({
      path: a.path,
      size: a.size,
      async open() {
        const res = await readStoredFile(call, a.id);
        if (res.ok && res.body) return res.body;
        await res.body?.cancel();
        c.var.log.warn({ fileId: a.id, status: res.status }, 'export: an attachment cannot be read');
        return undefined;
      },
    }));
    return c.body(bundleStream(manifest, files), 200, {
      'content-type': 'application/x-tar',
      'content-disposition': `attachment; filename="docForm-${state.id}.tar"`,
    });
  });

  return app;
}
