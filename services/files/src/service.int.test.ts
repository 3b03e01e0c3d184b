/** The files service over its HTTP API against the embedded adapters (SQLite store, local blobs, in-process bus). */
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { DeliveredMessage } from '@docflow/bus';
import { type EventEnvelope, type Problem, type StoredFile, topicsOf } from '@docflow/contracts';
import { newHexId } from '@docflow/kit';
import { PROBLEM_CONTENT_TYPE } from '@docflow/kit/http';
import {
  attach as attachTo,
  authHeaders,
  call,
  documentCreated,
  fileEvents,
  type Harness,
  json,
  NAMESPACE,
  release as releaseOf,
  startHarness,
  until,
  upload,
} from './test-harness';

const MAX_BYTES = 1024 * 1024;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('files service', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ maxUploadBytes: MAX_BYTES });
  });
  after(() => h.close());

  const request = (path: string, init: RequestInit = {}) => call(h.service, path, init);
  const attach = (docId: string, files: { id: string; sha256: string }[], allowDupl?: boolean) =>
    attachTo(h.service, docId, files, allowDupl);
  const release = (docId: string) => releaseOf(h.service, docId);
  const handled = (messageId: string) =>
    h.db.prepare('SELECT 1 FROM handled_messages WHERE message_id = ?').get(messageId) !== undefined;

  it('stores an upload, answers 201 with its hash and size, and records FileStored', async () => {
    const bytes = randomBytes(10_000);
    const res = await upload(h.service, bytes, {
      fileName: 'Übersicht – 2026 €.pdf',
      contentType: 'application/pdf',
    });
    assert.equal(res.status, 201);
    const body = await json<StoredFile>(res);
    assert.match(body.id, /^[0-9a-f]{24}$/);
    assert.deepEqual(body, {
      id: body.id,
      fileName: 'Übersicht – 2026 €.pdf',
      size: 10_000,
      sha256: sha256(bytes),
      contentType: 'application/pdf',
    });
    const events = await h.store.readStream(`file-${body.id}`);
    assert.equal(events.length, 1);
    assert.equal(events[0]?.type, 'FileStored');
    assert.deepEqual(events[0]?.data, { ...body, blobKey: sha256(bytes) });
    assert.equal(events[0]?.metadata.actor, 'usr-00000000-0000-4000-8000-000000000001');
  });

  it('defaults the content type to application/octet-stream and accepts an empty file', async () => {
    const res = await upload(h.service, new Uint8Array(0));
    assert.equal(res.status, 201);
    const body = await json<StoredFile>(res);
    assert.equal(body.contentType, 'application/octet-stream');
    assert.equal(body.size, 0);
  });

  it('downloads the same bytes with attachment headers', async () => {
    const bytes = randomBytes(200_000);
    const { id } = await json<StoredFile>(upload(h.service, bytes, { fileName: '日本語 "x".txt' }));
    const res = await request(`/internal/v1/files/${id}`, { headers: authHeaders });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/octet-stream');
    assert.equal(res.headers.get('content-length'), '200000');
    assert.equal(
      res.headers.get('content-disposition'),
      `attachment; filename="___ x.txt"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E%20%22x%22.txt`,
    );
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), bytes);

    const head = await request(`/internal/v1/files/${id}`, { method: 'HEAD', headers: authHeaders });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), '200000');
    assert.equal(head.body, null);
  });

  it('publishes FileStored on the files topic keyed by the file id', async () => {
    const seen: DeliveredMessage[] = [];
    const consumer = await h.bus.subscribe(
      { groupId: `watch-${randomUUID()}`, topics: [topicsOf(NAMESPACE).files], fromBeginning: true },
      async (m) => {
        seen.push(m);
      },
    );
    try {
      const { id } = await json<StoredFile>(upload(h.service, randomBytes(10)));
      await until(() => seen.some((m) => m.key === id), 'FileStored on the bus');
      const message = seen.find((m) => m.key === id);
      assert.equal(message?.value.type, 'FileStored');
      assert.equal(message?.value.streamId, `file-${id}`);
    } finally {
      await consumer.stop();
    }
  });

  it('answers 401 without the internal token or without a principal', async () => {
    const noToken = await upload(h.service, randomBytes(10), { headers: { 'x-docflow-internal-token': '' } });
    assert.equal(noToken.status, 401);
    assert.equal(noToken.headers.get('content-type'), PROBLEM_CONTENT_TYPE);
    const wrongToken = await request(`/internal/v1/files/${newHexId()}`, {
      headers: { 'x-docflow-internal-token': 'x'.repeat(40) },
    });
    assert.equal(wrongToken.status, 401);
    const noPrincipal = await upload(h.service, randomBytes(10), { headers: { 'x-docflow-principal': '' } });
    assert.equal(noPrincipal.status, 401);
    const attachments = await request('/internal/v1/attachments', { method: 'POST', body: '{}' });
    assert.equal(attachments.status, 401);
  });

  it('refuses a duplicate with allowDupl=false once /attachments recorded the hash; allowDupl=true stores it', async () => {
    const bytes = randomBytes(1000);
    const first = await json<StoredFile>(upload(h.service, bytes, { allowDupl: 'false' }));
    assert.equal((await upload(h.service, bytes, { allowDupl: 'false' })).status, 201, 'not attached yet');
    const docId = newHexId();
    assert.equal((await attach(docId, [{ id: first.id, sha256: first.sha256 }])).status, 204);
    assert.equal((await attach(docId, [{ id: first.id, sha256: first.sha256 }])).status, 204, 'idempotent');

    const refused = await upload(h.service, bytes, { allowDupl: 'false' });
    assert.equal(refused.status, 409);
    assert.equal(refused.headers.get('content-type'), PROBLEM_CONTENT_TYPE);
    const problem = await json<Problem>(refused);
    assert.equal(problem.detail, 'a file with the same content is already attached to a document');
    assert.doesNotMatch(JSON.stringify(problem), new RegExp(docId));

    assert.equal((await upload(h.service, bytes, { allowDupl: 'true' })).status, 201);
    assert.equal((await upload(h.service, bytes)).status, 201, 'allowDupl defaults to true');
  });

  it('claims with allowDupl=false atomically: of concurrent claims of one content exactly one wins', async () => {
    const bytes = randomBytes(1000);
    const files = await Promise.all(
      Array.from({ length: 6 }, () => json<StoredFile>(upload(h.service, bytes))),
    );
    const docs = files.map(() => newHexId());
    const answers = await Promise.all(
      files.map((f, i) => attach(docs[i]!, [{ id: f.id, sha256: f.sha256 }], false)),
    );
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [204, 409, 409, 409, 409, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    assert.equal(refused.headers.get('content-type'), PROBLEM_CONTENT_TYPE);
    const winner = files[answers.findIndex((a) => a.status === 204)]!;
    const loser = files[answers.findIndex((a) => a.status === 409)]!;
    const discard = (id: string) =>
      request(`/internal/v1/files/${id}`, { method: 'DELETE', headers: authHeaders });
    assert.equal((await discard(loser.id)).status, 204, 'a refused claim left its file unattached');
    assert.equal((await discard(winner.id)).status, 409, 'the claimed file is attached');
  });

  it('releases the claim of a document never created: its content is free again and its file can be discarded', async () => {
    const bytes = randomBytes(1000);
    const stored = await json<StoredFile>(upload(h.service, bytes));
    const docId = newHexId();
    assert.equal((await attach(docId, [{ id: stored.id, sha256: stored.sha256 }], false)).status, 204);
    assert.equal((await upload(h.service, bytes, { allowDupl: 'false' })).status, 409);
    assert.equal((await release(docId)).status, 204);
    assert.equal((await release(docId)).status, 204, 'idempotent');
    assert.equal((await upload(h.service, bytes, { allowDupl: 'false' })).status, 201);
    const discarded = await request(`/internal/v1/files/${stored.id}`, {
      method: 'DELETE',
      headers: authHeaders,
    });
    assert.equal(discarded.status, 204);
    assert.equal((await release('not-an-id')).status, 400);
  });

  it('never releases the claim of a document whose DocumentCreated arrived', async () => {
    const stored = await json<StoredFile>(upload(h.service, randomBytes(1000)));
    const docId = newHexId();
    const files = [{ id: stored.id, sha256: stored.sha256 }];
    assert.equal((await attach(docId, files, false)).status, 204);
    const created = documentCreated(docId, files);
    await h.bus.publish(topicsOf(NAMESPACE).document, [
      { id: created.id, key: docId, value: created as unknown as Record<string, unknown> },
    ]);
    await until(() => handled(created.id), 'DocumentCreated to be applied');
    const refused = await release(docId);
    assert.equal(refused.status, 409);
    assert.equal(refused.headers.get('content-type'), PROBLEM_CONTENT_TYPE);
    const discard = await request(`/internal/v1/files/${stored.id}`, {
      method: 'DELETE',
      headers: authHeaders,
    });
    assert.equal(discard.status, 409, 'the file stays attached');
  });

  it('refuses a duplicate with allowDupl=false once DocumentCreated arrived on the bus, ignoring other events', async () => {
    const bytes = randomBytes(1000);
    const stored = await json<StoredFile>(upload(h.service, bytes));
    const docId = newHexId();
    const other = { ...documentCreated(docId, []), id: randomUUID(), type: 'DocumentTagsChanged', data: {} };
    const created = documentCreated(docId, [{ id: stored.id, sha256: stored.sha256 }]);
    const publish = (e: EventEnvelope) =>
      h.bus.publish(topicsOf(NAMESPACE).document, [
        { id: e.id, key: docId, value: e as unknown as Record<string, unknown> },
      ]);
    await publish(other);
    await publish(created);
    await until(() => handled(created.id), 'DocumentCreated to be applied');
    assert.equal((await upload(h.service, bytes, { allowDupl: 'false' })).status, 409);

    // The same facts again, by the bus and by the document service's call: harmless.
    // Same key as `created`, so once this one is applied the repeat before it was handled too.
    const sentinel = documentCreated(newHexId(), []);
    await publish(created);
    await publish(sentinel);
    await until(() => handled(sentinel.id), 'the repeated DocumentCreated to be handled');
    assert.equal((await attach(docId, [{ id: stored.id, sha256: stored.sha256 }])).status, 204);
    const rows = h.db.prepare('SELECT count(*) AS n FROM file_attachments WHERE doc_id = ?').get(docId) as {
      n: number;
    };
    assert.equal(rows.n, 1);
  });

  it('answers 413 past maxUploadBytes, streamed or declared, and records nothing', async () => {
    const before = (await fileEvents(h.store)).length;
    const streamed = await upload(h.service, chunked(MAX_BYTES + 1, 64 * 1024));
    assert.equal(streamed.status, 413);
    assert.equal(streamed.headers.get('content-type'), PROBLEM_CONTENT_TYPE);
    const declared = await upload(h.service, new Uint8Array(10), {
      headers: { 'content-length': String(MAX_BYTES + 1) },
    });
    assert.equal(declared.status, 413);
    assert.equal(
      (await upload(h.service, chunked(MAX_BYTES, 64 * 1024))).status,
      201,
      'the limit itself is fine',
    );
    assert.equal((await fileEvents(h.store)).length, before + 1);
  });

  it('records nothing when the body stream fails half-way', async () => {
    const before = (await fileEvents(h.store)).length;
    let sent = 0;
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 3) controller.error(new Error('connection reset by peer'));
        else {
          sent++;
          controller.enqueue(randomBytes(16 * 1024));
        }
      },
    });
    const res = await upload(h.service, failing);
    assert.equal(res.status, 400);
    assert.equal((await json<Problem>(res)).title, 'Upload interrupted');
    assert.equal((await fileEvents(h.store)).length, before);
  });

  it('answers 404 for an unknown file and 400 for a malformed id', async () => {
    const unknown = await request(`/internal/v1/files/${newHexId()}`, { headers: authHeaders });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.headers.get('content-type'), PROBLEM_CONTENT_TYPE);
    const malformed = await request('/internal/v1/files/not-an-id', { headers: authHeaders });
    assert.equal(malformed.status, 400);
  });

  it('answers 400 for a bad file name or allowDupl value, and records nothing', async () => {
    const before = (await fileEvents(h.store)).length;
    assert.equal((await upload(h.service, randomBytes(10), { fileName: 'a/b.txt' })).status, 400);
    assert.equal(
      (await upload(h.service, randomBytes(10), { headers: { 'x-docflow-file-name': '%E0%A4%A' } })).status,
      400,
    );
    assert.equal((await upload(h.service, randomBytes(10), { allowDupl: 'yes' })).status, 400);
    assert.equal((await upload(h.service, randomBytes(10), { contentType: 'nonsense' })).status, 400);
    assert.equal((await fileEvents(h.store)).length, before);
  });

  it('validates /attachments: 400 for a bad body, 415 for a non-JSON one', async () => {
    assert.equal((await attach('nope', [])).status, 400);
    assert.equal((await attach(newHexId(), [{ id: newHexId(), sha256: 'abc' }])).status, 400);
    const text = await request('/internal/v1/attachments', {
      method: 'POST',
      headers: { ...authHeaders, 'content-type': 'text/plain' },
      body: 'x',
    });
    assert.equal(text.status, 415);
  });

  it('reports readiness of its engines and of its attachment index (rebuilt)', async () => {
    const res = await request('/readyz');
    assert.equal(res.status, 200);
    assert.deepEqual((await json<{ checks: unknown }>(res)).checks, {
      eventStore: 'up',
      blobStore: 'up',
      attachmentIndex: 'up',
      bus: 'up',
    });
  });
});

/** `total` random bytes as a stream of `chunkSize` chunks. */
function chunked(total: number, chunkSize: number): ReadableStream<Uint8Array> {
  let left = total;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (left === 0) return controller.close();
      const n = Math.min(left, chunkSize);
      left -= n;
      controller.enqueue(randomBytes(n));
    },
  });
}
