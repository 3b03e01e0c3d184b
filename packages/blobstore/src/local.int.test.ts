import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { describeBlobStoreContract, peakRssGrowthOfPut } from './conformance';
import { createLocalBlobStore } from './local';
import type { BlobStore } from './port';
import { BlobStoreUnavailable } from './port';

const MiB = 1024 * 1024;

describeBlobStoreContract('local directory', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'docflow-blobstore-'));
  return {
    store: await createLocalBlobStore({ dir }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
    leftovers: () => readdir(join(dir, 'tmp')),
  };
});

describe('local blob store', () => {
  let dir = '';
  let store: BlobStore;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'docflow-blobstore-'));
    store = await createLocalBlobStore({ dir });
  });
  after(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps memory bounded while storing 256 MiB from a generator', { timeout: 120_000 }, async () => {
    const growth = await peakRssGrowthOfPut(store, 256 * MiB);
    assert.ok(growth < 64 * MiB, `RSS grew by ${(growth / MiB).toFixed(1)} MiB`);
  });

  it('stores blobs under sha256/<aa>/<hash>', async () => {
    const stored = await store.put(Readable.from([Buffer.from('hello')]));
    assert.deepEqual(await readdir(join(dir, 'sha256', stored.key.slice(0, 2))), [stored.key]);
  });

  it('makes a fan-out directory again when it was removed after a put', async () => {
    const first = await store.put(Readable.from([Buffer.from('fan-out 1')]));
    await rm(join(dir, 'sha256', first.key.slice(0, 2)), { recursive: true });
    const again = await store.put(Readable.from([Buffer.from('fan-out 1')]));
    assert.equal(again.key, first.key);
    assert.equal((await stat(join(dir, 'sha256', first.key.slice(0, 2), first.key))).size, 9);
  });

  it('creates its directories 0700 and its blobs 0600', async () => {
    const umask = process.umask(0o022); // the usual umask: only the store may make them private
    const root = await mkdtemp(join(tmpdir(), 'docflow-blobstore-'));
    try {
      const blobs = await createLocalBlobStore({ dir: join(root, 'files', 'blobs') });
      const { key } = await blobs.put(Readable.from([Buffer.from('private')]));
      const mode = async (...path: string[]) => ((await stat(join(root, ...path))).mode & 0o777).toString(8);
      for (const dir of [
        ['files'],
        ['files', 'blobs'],
        ['files', 'blobs', 'tmp'],
        ['files', 'blobs', 'sha256'],
        ['files', 'blobs', 'sha256', key.slice(0, 2)],
      ])
        assert.equal(await mode(...dir), '700', dir.join('/'));
      assert.equal(await mode('files', 'blobs', 'sha256', key.slice(0, 2), key), '600');
    } finally {
      process.umask(umask);
      await rm(root, { recursive: true, force: true });
    }
  });

  it('removes temp files left by a dead process when opened, and keeps those of live ones', async () => {
    const other = await mkdtemp(join(tmpdir(), 'docflow-blobstore-'));
    try {
      await mkdir(join(other, 'tmp'));
      const deadPid = 2 ** 22 + 1; // above Linux's pid_max limit, so never a running process
      const names = [`${deadPid}.leftover`, `${process.pid}.leftover`, 'garbage', `${process.ppid}.in-use`];
      for (const name of names) await writeFile(join(other, 'tmp', name), 'partial');
      await createLocalBlobStore({ dir: other });
      assert.deepEqual(await readdir(join(other, 'tmp')), [`${process.ppid}.in-use`]);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('reports a missing directory as BlobStoreUnavailable from ping', async () => {
    const other = await mkdtemp(join(tmpdir(), 'docflow-blobstore-'));
    const doomed = await createLocalBlobStore({ dir: other });
    await rm(other, { recursive: true, force: true });
    await assert.rejects(doomed.ping(), BlobStoreUnavailable);
    await assert.rejects(doomed.put(Readable.from([Buffer.from('x')])), BlobStoreUnavailable);
  });
});
