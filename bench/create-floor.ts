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
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalBlobStore, type StoredBlob } from '@docflow/blobstore';
import { DocFormCreate, docFormStream } from '@docflow/contracts';
import { createSqliteEventStore } from '@docflow/eventstore';
import { parseWith } from '@docflow/kit/http';
import { parseCreateMultipart } from '../services/document/src/documents/multipart';
import { floorApp, floorAuthentication, serveFloor } from './floor-app';

const MAX_CREATE_BYTES = 100 * 1024 * 1024;

const dir = mkdtempSync(join(tmpdir(), 'docflow-create-floor-'));
const store = createSqliteEventStore({ file: join(dir, 'events.db') });
const blobs = await createLocalBlobStore({ dir: join(dir, 'blobs') });

const app = floorApp('create-floor');
const path = '/api/v2/docForm/form/:formName';
app.use(path, floorAuthentication(process.env.FLOOR_API_KEY ?? ''));
app.post(path, async (c) => {
  const author = c.get('principal').subject;
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
    author,
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
        metadata: { correlationId: c.get('correlationId'), actor: author, timestamp: now },
      },
    ],
    0,
  );
  return c.json({ _id: id, _meta: { _rev: 1, _created: now, _lastmodified: now }, ...data }, 201);
});

await serveFloor(app, { msg: 'create floor listening' }, async () => {
  await store.close();
  await blobs.close();
  rmSync(dir, { recursive: true, force: true });
});
