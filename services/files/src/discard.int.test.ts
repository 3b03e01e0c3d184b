/**
 * Discarding files no document holds: `DELETE /internal/v1/files/{id}`, the orphan sweeper, and the
 * blob shared by files of the same content, against the embedded adapters.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { BlobNotFound, type BlobStore, BlobStoreUnavailable } from '@docflow/blobstore';
import type { Problem, StoredFile } from '@docflow/contracts';
import { newHexId } from '@docflow/kit';
import { PROBLEM_CONTENT_TYPE } from '@docflow/kit/http';
import {
  attach,
  authHeaders,
  call,
  fileEvents,
  type Harness,
  json,
  startHarness,
  until,
  upload,
} from './test-harness';

const GRACE_SECONDS = 60;

const discard = (h: Harness, id: string, headers: Record<string, string> = authHeaders) =>
  call(h.service, `/internal/v1/files/${id}`, { method: 'DELETE', headers });
const download = (h: Harness, id: string) =>
  call(h.service, `/internal/v1/files/${id}`, { headers: authHeaders });
const blobExists = (h: Harness, key: string) =>
  h.blobs.stat(key).then(
    () => true,
    (err: unknown) => {
      if (err instanceof BlobNotFound) return false;
      throw err;
    },
  );
const tableState = (h: Harness, id: string) =>
  (h.db.prepare('SELECT state FROM stored_files WHERE file_id = ?').get(id) as { state: string } | undefined)
    ?.state;
const storedAt = async (h: Harness, id: string) =>
  Date.parse((await h.store.readStream(`file-${id}`))[0]!.recordedAt);
const attachOne = (h: Harness, file: StoredFile) =>
  attach(h.service, newHexId(), [{ id: file.id, sha256: file.sha256 }]);

describe('DELETE /internal/v1/files/{id}', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  it('discards a file no document holds: 204, again 204, FileDiscarded once, then 404 and its blob gone', async () => {
    const file = await json<StoredFile>(upload(h.service, randomBytes(1000)));
    assert.equal(await blobExists(h, file.sha256), true);

    assert.equal((await discard(h, file.id)).status, 204);
    assert.equal(await blobExists(h, file.sha256), false);
    assert.equal((await discard(h, file.id)).status, 204, 'idempotent');

    const events = await h.store.readStream(`file-${file.id}`);
    assert.deepEqual(
      events.map((e) => [e.type, e.data]),
      [
        ['FileStored', { ...file, blobKey: file.sha256 }],
        ['FileDiscarded', { id: file.id, reason: 'rejected' }],
      ],
    );
    assert.equal(events[1]?.metadata.actor, 'usr-00000000-0000-4000-8000-000000000001');
    const gone = await download(h, file.id);
    assert.equal(gone.status, 404);
    assert.equal(gone.headers.get('content-type'), PROBLEM_CONTENT_TYPE);
    const head = await call(h.service, `/internal/v1/files/${file.id}`, {
      method: 'HEAD',
      headers: authHeaders,
    });
    assert.equal(head.status, 404);
  });

  it('refuses to discard a file a document holds: 409, and the file and its blob stay', async () => {
    const bytes = randomBytes(1000);
    const file = await json<StoredFile>(upload(h.service, bytes));
    assert.equal((await attachOne(h, file)).status, 204);

    const refused = await discard(h, file.id);
    assert.equal(refused.status, 409);
    assert.equal(refused.headers.get('content-type'), PROBLEM_CONTENT_TYPE);
    assert.match((await json<Problem>(refused)).detail ?? '', /attached to a document/);
    assert.equal((await h.store.readStream(`file-${file.id}`)).length, 1, 'nothing recorded');
    const res = await download(h, file.id);
    assert.equal(res.status, 200);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), bytes);
  });

  it('keeps a blob another stored file holds, and removes it with the last of them', async () => {
    const bytes = randomBytes(1000);
    const first = await json<StoredFile>(upload(h.service, bytes));
    const second = await json<StoredFile>(upload(h.service, bytes));
    assert.equal(first.sha256, second.sha256);

    assert.equal((await discard(h, first.id)).status, 204);
    assert.equal(await blobExists(h, first.sha256), true);
    const res = await download(h, second.id);
    assert.equal(res.status, 200);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), bytes);

    assert.equal((await discard(h, second.id)).status, 204);
    assert.equal(await blobExists(h, first.sha256), false);
  });

  it('keeps a blob an attached file of the same content holds', async () => {
    const bytes = randomBytes(1000);
    const held = await json<StoredFile>(upload(h.service, bytes));
    assert.equal((await attachOne(h, held)).status, 204);
    const rejected = await json<StoredFile>(upload(h.service, bytes));
    assert.equal((await discard(h, rejected.id)).status, 204);
    const res = await download(h, held.id);
    assert.equal(res.status, 200);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), bytes);
  });

  it('answers 404 for an unknown file, 400 for a malformed id, 401 without the internal token', async () => {
    const unknown = await discard(h, newHexId());
    assert.equal(unknown.status, 404);
    assert.equal(unknown.headers.get('content-type'), PROBLEM_CONTENT_TYPE);
    assert.equal((await discard(h, 'not-an-id')).status, 400);
    const file = await json<StoredFile>(upload(h.service, randomBytes(10)));
    assert.equal((await discard(h, file.id, {})).status, 401);
    assert.equal((await download(h, file.id)).status, 200, 'a refused discard changes nothing');
  });
});

describe('orphan sweeper', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ uploadGraceSeconds: GRACE_SECONDS });
  });
  after(() => h.close());

  it('discards a file no document holds once its grace is over; keeps attached and young files', async () => {
    const orphan = await json<StoredFile>(upload(h.service, randomBytes(1000)));
    const held = await json<StoredFile>(upload(h.service, randomBytes(1000)));
    assert.equal((await attachOne(h, held)).status, 204);
    const ended = Math.max(await storedAt(h, orphan.id), await storedAt(h, held.id));
    await until(() => Date.now() > ended, 'the clock to move past the first uploads');
    const young = await json<StoredFile>(upload(h.service, randomBytes(1000)));
    await until(() => tableState(h, young.id) !== undefined, 'the table to learn of the uploads');

    // Counted back from here, the grace period ends just before the young file's upload did.
    const now = (await storedAt(h, young.id)) - 1 + GRACE_SECONDS * 1000;
    assert.deepEqual(await h.service.sweepOrphans(now), {
      discarded: 1,
      attached: 1,
      released: 0,
      failed: 0,
    });
    assert.equal((await download(h, orphan.id)).status, 404);
    assert.equal(await blobExists(h, orphan.sha256), false);
    const events = await h.store.readStream(`file-${orphan.id}`);
    assert.deepEqual(events[1]?.data, { id: orphan.id, reason: 'unattached' });
    assert.equal((await download(h, held.id)).status, 200);
    assert.equal((await download(h, young.id)).status, 200);

    // Once the young file is old too, it goes; the attached one is not looked at again.
    const later = await h.service.sweepOrphans(Date.now() + GRACE_SECONDS * 1000);
    assert.deepEqual(later, { discarded: 1, attached: 0, released: 0, failed: 0 });
    assert.equal((await download(h, young.id)).status, 404);
    assert.equal((await download(h, held.id)).status, 200);
    assert.equal(await blobExists(h, held.sha256), true);
  });

  it('keeps its table over a restart and catches up with a FileStored committed while it was down', async () => {
    const seen = await json<StoredFile>(upload(h.service, randomBytes(1000)));
    await until(() => tableState(h, seen.id) === 'stored', 'the table to learn of the upload');
    const unseen = { id: newHexId(), fileName: 'crash.bin', contentType: 'application/octet-stream' };
    let blobKey = '';
    await h.restart(async ({ store, blobs }) => {
      // As if committed just before a crash: the stopped projection never saw it.
      const blob = await blobs.put(Readable.from([randomBytes(1000)]));
      blobKey = blob.key;
      const data = { ...unseen, size: blob.size, sha256: blob.sha256, blobKey };
      const metadata = { correlationId: randomUUID(), timestamp: new Date().toISOString() };
      await store.append(
        `file-${unseen.id}`,
        [{ id: randomUUID(), type: 'FileStored', version: 1, data, metadata }],
        0,
      );
    });
    await until(() => tableState(h, unseen.id) === 'stored', 'the table to catch up after the restart');

    const report = await h.service.sweepOrphans(Date.now() + GRACE_SECONDS * 1000);
    assert.deepEqual(report, { discarded: 2, attached: 0, released: 0, failed: 0 });
    assert.equal((await download(h, seen.id)).status, 404);
    assert.equal((await download(h, unseen.id)).status, 404);
    assert.equal(await blobExists(h, seen.sha256), false);
    assert.equal(await blobExists(h, blobKey), false);
  });
});

/** A point an operation passes; `arm()` makes the next pass wait there until `release()`. */
function holdPoint() {
  let armed: { reached: Promise<void>; reach(): void; opened: Promise<void>; release(): void } | undefined;
  return {
    /** `reached` resolves once the next pass arrived. */
    arm() {
      let reach!: () => void;
      let release!: () => void;
      const reached = new Promise<void>((resolve) => {
        reach = resolve;
      });
      const opened = new Promise<void>((resolve) => {
        release = resolve;
      });
      armed = { reached, reach, opened, release };
      return { reached, release };
    },
    async pass() {
      const held = armed;
      armed = undefined;
      held?.reach();
      await held?.opened;
    },
  };
}

/** Where the blob store the service uses can be held, and its next delete made to fail. */
const control = { afterPut: holdPoint(), afterStat: holdPoint(), failNextDelete: false };

function controlled(blobs: BlobStore): BlobStore {
  return {
    ...blobs,
    async put(content, options) {
      const stored = await blobs.put(content, options);
      await control.afterPut.pass();
      return stored;
    },
    async stat(key) {
      const found = await blobs.stat(key);
      await control.afterStat.pass();
      return found;
    },
    async delete(key) {
      if (control.failNextDelete) {
        control.failNextDelete = false;
        throw new BlobStoreUnavailable('injected failure');
      }
      return blobs.delete(key);
    },
  };
}

describe('discard against concurrent uploads and a failing blob store', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ uploadGraceSeconds: GRACE_SECONDS, wrapBlobs: controlled });
  });
  after(() => h.close());

  it('answers 503 to an upload whose content a discard removed after its put, and records nothing', async () => {
    const bytes = randomBytes(1000);
    const first = await json<StoredFile>(upload(h.service, bytes));
    const eventsBefore = (await fileEvents(h.store)).length;
    const held = control.afterPut.arm();
    const second = upload(h.service, bytes);
    await held.reached;
    // The upload's put found the blob; the only recorded holder is discarded and the blob goes.
    assert.equal((await discard(h, first.id)).status, 204);
    assert.equal(await blobExists(h, first.sha256), false);
    held.release();

    const res = await second;
    assert.equal(res.status, 503);
    assert.equal(res.headers.get('content-type'), PROBLEM_CONTENT_TYPE);
    assert.ok(res.headers.get('retry-after'));
    assert.equal((await fileEvents(h.store)).length, eventsBefore + 1, 'only the FileDiscarded');
    const again = await json<StoredFile>(upload(h.service, bytes));
    assert.deepEqual(Buffer.from(await (await download(h, again.id)).arrayBuffer()), bytes);
  });

  it('keeps the blob for an upload of the same content that recorded itself while the discard waited', async () => {
    const bytes = randomBytes(1000);
    const first = await json<StoredFile>(upload(h.service, bytes));
    const held = control.afterStat.arm();
    const second = upload(h.service, bytes);
    await held.reached;
    // The upload holds the blob's lock (it found the blob and is about to record FileStored).
    const discarded = discard(h, first.id);
    await until(() => tableState(h, first.id) !== 'stored', 'FileDiscarded to be applied');
    held.release();

    assert.equal((await discarded).status, 204);
    const stored = await second;
    assert.equal(stored.status, 201);
    const res = await download(h, (await json<StoredFile>(stored)).id);
    assert.equal(res.status, 200);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), bytes);
  });

  it('leaves the blob of a discard whose delete failed to the next sweep', async () => {
    const file = await json<StoredFile>(upload(h.service, randomBytes(1000)));
    control.failNextDelete = true;
    const failed = await discard(h, file.id);
    assert.equal(failed.status, 503);
    assert.equal((await download(h, file.id)).status, 404, 'discarded all the same');
    assert.equal(await blobExists(h, file.sha256), true);

    const report = await h.service.sweepOrphans();
    assert.deepEqual(report, { discarded: 0, attached: 0, released: 1, failed: 0 });
    assert.equal(await blobExists(h, file.sha256), false);
  });
});
