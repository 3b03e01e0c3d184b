/**
 * The floor of a create with one file (issue 14), run by bench/create-document.ts as its own process
 * beside docflow and measured in the same rounds: what no docflow create can leave out, in one Hono
 * app on @hono/node-server. Per request: kit's tracing, request-context and metrics middleware (a
 * server span, the ids, one access-log line), the API key's SHA-256 looked up and the role checked,
 * the multipart body streamed through the document service's own parser (no file held whole), each
 * file streamed into the real local blob store (hashed, fsynced, renamed, its directory fsynced), the
 * docForm part validated by the contract's `DocFormCreate`, one `DocumentCreated`-sized event appended
 * to a new stream through the real SQLite event store (committed and fdatasynced), and a 201 with the
 * new document's JSON. Left out: the idempotency record, the form's definition read, the files and
 * identity calls, the workflow, the relay to the bus and every projection docflow runs after a create.
 * Logs its port as one JSON line.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalBlobStore, type StoredBlob } from '@docflow/blobstore';
import { DocFormCreate, docFormStream } from '@docflow/contracts';
import { createSqliteEventStore } from '@docflow/eventstore';
import { createLogger, startTracing } from '@docflow/kit';
import {
  handleError,
  handleNotFound,
  httpMetrics,
  httpTracing,
  parseWith,
  problems,
  requestContext,
  type ServiceEnv,
} from '@docflow/kit/http';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { parseCreateMultipart } from '../services/document/src/multipart';

const MAX_CREATE_BYTES = 100 * 1024 * 1024;
const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');
const accounts = new Map([
  [hashOf(process.env.FLOOR_API_KEY ?? ''), { id: 'usr-floor', roles: ['svcAdminSysRW'] }],
]);

const dir = mkdtempSync(join(tmpdir(), 'docflow-create-floor-'));
const store = createSqliteEventStore({ file: join(dir, 'events.db') });
const blobs = await createLocalBlobStore({ dir: join(dir, 'blobs') });

startTracing('create-floor');
const app = new Hono<ServiceEnv>();
app.onError(handleError);
app.notFound(handleNotFound);
app.use(httpTracing('create-floor'));
app.use(requestContext(createLogger('create-floor')));
app.use(httpMetrics('create-floor'));
app.post('/api/v2/docForm/form/:formName', async (c) => {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
  const account = bearer ? accounts.get(hashOf(bearer[1]!)) : undefined;
  if (!account) throw problems.unauthorized('unknown API key');
  if (!account.roles.includes('svcAdminSysRW')) throw problems.forbidden('not an admin');
  const stored: Array<StoredBlob & { name: string; contentType: string }> = [];
  const parts = await parseCreateMultipart(
    c.req.raw,
    async (file) => {
      const blob = await blobs.put(file.stream, { maxBytes: MAX_CREATE_BYTES });
      const entry = { ...blob, name: file.fileName, contentType: file.contentType };
      stored.push(entry);
      return entry;
    },
    { maxBodyBytes: MAX_CREATE_BYTES },
  );
  const docForm = parseWith('docForm', DocFormCreate, JSON.parse(parts.docForm ?? '{}'));
  const id = randomBytes(12).toString('hex');
  const now = new Date().toISOString();
  const files = stored.map((f) => ({
    fileId: `fil-${randomBytes(8).toString('hex')}`,
    name: f.name,
    contentType: f.contentType,
    size: f.size,
    sha256: f.sha256,
  }));
  const data = {
    formName: c.req.param('formName'),
    author: account.id,
    valuesByTags: docForm.valuesByTags,
    tags: docForm._tags,
    files,
  };
  await store.append(
    docFormStream(id),
    [
      {
        id: randomUUID(),
        type: 'DocumentCreated',
        version: 1,
        data,
        metadata: { correlationId: c.get('correlationId'), actor: account.id, timestamp: now },
      },
    ],
    0,
  );
  return c.json({ _id: id, _meta: { _rev: 1, _created: now, _lastmodified: now }, ...data }, 201);
});

const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) =>
  console.log(JSON.stringify({ msg: 'create floor listening', port: info.port })),
);
process.on('SIGTERM', () =>
  server.close(async () => {
    await store.close();
    await blobs.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  }),
);
