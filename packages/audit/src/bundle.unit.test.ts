/** An export bundle written by bundleStream verifies offline; a lie anywhere names its first bad entry. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { BundleManifest } from '@docflow/contracts';
import { bundleStream } from './bundle';
import { verifyBundle } from './bundle-verify';
import { FILE, FILE_ID, FILE_PATH, manifest } from './test-fixtures';

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
      path: FILE_PATH,
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
      documentId: manifest().document._id,
      revisions: 2,
      head: manifest().history[1]!.hash,
      firstBadRevision: null,
      firstBadEntry: null,
      reason: null,
    });
  });

  it('an edited history entry is the first bad entry', async () => {
    const m = manifest();
    m.history[1]!.data = { valuesByTags: { total: '999.00' }, tags: ['invoice'] };
    const verdict = await verifyBundle(await written(m));
    assert.equal(verdict.firstBadEntry, 'history/2');
    assert.equal(verdict.firstBadRevision, 2);
  });

  it('changed attachment bytes name the attachment and the revision recording it', async () => {
    const verdict = await verifyBundle(await written(manifest(), Buffer.from('the attachmenT')));
    assert.equal(verdict.firstBadEntry, `attachments/${FILE_ID}`);
    assert.equal(verdict.firstBadRevision, 1);
    assert.match(verdict.reason!, /SHA-256/);
  });

  it('missing attachment bytes are named', async () => {
    const verdict = await verifyBundle(await written(manifest(), null));
    assert.equal(verdict.firstBadEntry, `attachments/${FILE_ID}`);
    assert.match(verdict.reason!, /lacks its bytes/);
  });

  it('a document whose revision is not the history’s length is named', async () => {
    const m = manifest();
    m.document._meta = { ...(m.document._meta as object), _rev: 1 };
    const verdict = await verifyBundle(await written(m));
    assert.equal(verdict.firstBadEntry, 'document');
    assert.match(verdict.reason!, /\/_meta\/_rev/);
  });
});
