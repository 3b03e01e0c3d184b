/** An export bundle written by bundleStream verifies offline; a lie anywhere names its first bad entry. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BUNDLE_FORMAT, type BundleManifest } from '@docflow/contracts';
import { bundleStream } from './bundle';
import { verifyBundle } from './bundle-verify';
import { eventHash, GENESIS_HASH, HASHING } from './chain';

const FILE = Buffer.from('the attachment');
const SHA = createHash('sha256').update(FILE).digest('hex');
const ID = '6b04e41bbb86ad8e68ce8569';

function manifest(): BundleManifest {
  const file = { id: ID, fileName: 'a.txt', size: FILE.length, sha256: SHA, contentType: 'text/plain' };
  const events = [
    {
      revision: 1,
      type: 'DocumentCreated',
      data: { id: 'd', files: [file] },
      time: '2026-11-24T01:00:00.000Z',
    },
    { revision: 2, type: 'DocumentFieldsUpdated', data: { n: 2 }, time: '2026-11-24T01:00:01.000Z' },
  ];
  let prev = GENESIS_HASH;
  const history = events.map((e) => {
    const hash = eventHash(prev, e);
    const entry = {
      rev: e.revision,
      type: e.type,
      time: e.time,
      data: e.data,
      hash,
      prevHash: prev,
      changes: [],
    };
    prev = hash;
    return entry;
  });
  return {
    format: BUNDLE_FORMAT,
    exportedAt: '2026-11-24T02:00:00.000Z',
    hashing: HASHING,
    document: { _id: 'd', _meta: { _rev: 2 } },
    history,
    attachments: [{ ...file, revision: 1, path: `attachments/${ID}` }],
  };
}

async function* bytesOf(buffer: Buffer) {
  yield new Uint8Array(buffer);
}

const dir = mkdtempSync(join(tmpdir(), 'docflow-bundle-unit-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The bundle of `m` on disk, with `content` as the attachment's bytes (null: unreadable). */
async function written(m: BundleManifest, content: Buffer | null = FILE): Promise<string> {
  const path = join(dir, `${Math.random()}.tar`);
  const files = [
    {
      path: `attachments/${ID}`,
      size: FILE.length,
      open: async () => (content ? bytesOf(content) : undefined),
    },
  ];
  writeFileSync(path, Buffer.from(await new Response(bundleStream(m, files)).arrayBuffer()));
  return path;
}

describe('export bundle', () => {
  it('verifies as written', async () => {
    const verdict = await verifyBundle(await written(manifest()));
    assert.deepEqual(verdict, {
      valid: true,
      documentId: 'd',
      revisions: 2,
      head: manifest().history[1]!.hash,
      firstBadRevision: null,
      firstBadEntry: null,
      reason: null,
    });
  });

  it('an edited history entry is the first bad entry', async () => {
    const m = manifest();
    m.history[1]!.data = { n: 3 };
    const verdict = await verifyBundle(await written(m));
    assert.equal(verdict.firstBadEntry, 'history/2');
    assert.equal(verdict.firstBadRevision, 2);
  });

  it('changed attachment bytes name the attachment and the revision recording it', async () => {
    const verdict = await verifyBundle(await written(manifest(), Buffer.from('the attachmenT')));
    assert.equal(verdict.firstBadEntry, `attachments/${ID}`);
    assert.equal(verdict.firstBadRevision, 1);
    assert.match(verdict.reason!, /SHA-256/);
  });

  it('missing attachment bytes are named', async () => {
    const verdict = await verifyBundle(await written(manifest(), null));
    assert.equal(verdict.firstBadEntry, `attachments/${ID}`);
    assert.match(verdict.reason!, /lacks its bytes/);
  });

  it('a document whose revision is not the history’s length is named', async () => {
    const m = manifest();
    m.document = { _id: 'd', _meta: { _rev: 1 } };
    assert.equal((await verifyBundle(await written(m))).firstBadEntry, 'document');
  });
});
