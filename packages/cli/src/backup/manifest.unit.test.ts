import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BadManifest, buildManifest, type ManifestEntry, mismatch, parseManifest } from './manifest';

const SHA = (c: string) => c.repeat(64);
const blobPath = `files/blobs/sha256/bb/${SHA('b')}`;
const entries: ManifestEntry[] = [
  { path: 'identity/keys.db', kind: 'key-store', size: 4096, sha256: SHA('a') },
  { path: blobPath, kind: 'blob', size: 6, sha256: SHA('b') },
  { path: 'document/events.db', kind: 'event-store', size: 8192, sha256: SHA('c') },
];
const manifest = buildManifest({
  docflow: { version: '0.1.0', commit: null },
  source: '/srv/docflow',
  snapshotAt: '2026-11-26T12:00:00.000Z',
  snapshotWindowMs: 0.2,
  finishedAt: '2026-11-26T12:00:05.000Z',
  files: entries,
});
const withFiles = (files: unknown[]) => JSON.stringify({ ...manifest, files });

describe('backup manifest', () => {
  it('lists the files in path order, says which docflow wrote it and when, and reads back the same', () => {
    assert.deepEqual(
      manifest.files.map((f) => f.path),
      ['document/events.db', blobPath, 'identity/keys.db'],
    );
    assert.equal(manifest.format, 'docflow-backup');
    assert.deepEqual(parseManifest(JSON.stringify(manifest)), manifest);
  });

  const refused: Array<[string, string, RegExp]> = [
    ['not JSON', '{', /not JSON/],
    ['another format', JSON.stringify({ ...manifest, format: 'tar' }), /not a docflow backup/],
    ['a newer format', JSON.stringify({ ...manifest, formatVersion: 2 }), /format version 2/],
    ['a path out of the directory', withFiles([{ ...entries[0], path: '../../etc/keys.db' }]), /not a path/],
    ['an absolute path', withFiles([{ ...entries[0], path: '/etc/identity/keys.db' }]), /not a path/],
    ['a kind its path is not', withFiles([{ ...entries[0], kind: 'read-model' }]), /is a key-store/],
    ['a blob not named by its hash', withFiles([{ ...entries[1], sha256: SHA('c') }]), /sha256 is its name/],
    ['a bad hash', withFiles([{ ...entries[0], sha256: 'xyz' }]), /bad sha256/],
    ['a bad size', withFiles([{ ...entries[0], size: -1 }]), /bad size/],
    ['a file listed twice', withFiles([entries[0], entries[0]]), /listed twice/],
  ];
  for (const [what, text, reason] of refused)
    it(`refuses ${what}`, () =>
      assert.throws(
        () => parseManifest(text),
        (e) => e instanceof BadManifest && reason.test(e.message),
      ));

  it('names the file whose size or SHA-256 differs', () => {
    const entry = entries[0]!;
    assert.equal(mismatch(entry, { size: 4096, sha256: SHA('a') }), undefined);
    assert.match(
      mismatch(entry, { size: 4095, sha256: SHA('a') })!,
      /^identity\/keys\.db: 4095 bytes, the manifest says 4096$/,
    );
    assert.match(
      mismatch(entry, { size: 4096, sha256: SHA('f') })!,
      /^identity\/keys\.db: its SHA-256 is f+, the manifest says a+$/,
    );
  });
});
