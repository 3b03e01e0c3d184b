/**
 * Forged bundles do not verify (issue 29): the verifier refuses what `tar -x` or Python's tarfile
 * would extract differently from what it checked (a second manifest, entries the manifest does not
 * list, paths outside the folder, links, directories, devices, entries hidden after an end-of-archive
 * block), and re-folds the document from the history (the snapshot and each entry's changes), naming
 * the offending entry each time.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BUNDLE_MANIFEST } from '@docflow/contracts';
import { type BundleVerdict, verifyBundle } from './bundle-verify';
import { bundleEntries, FILE, FILE_PATH, manifest, type TarEntry, writeTar } from './test-fixtures';

const dir = mkdtempSync(join(tmpdir(), 'docflow-bundle-forgery-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let count = 0;
const verify = async (entries: readonly TarEntry[]) =>
  verifyBundle(await writeTar(join(dir, `${++count}.tar`), entries));

/** An edited copy of the manifest: the document's total raised, as a forger would. */
function editedManifest(): TarEntry {
  const m = manifest();
  m.document.valuesByTags = { total: '999999.00' };
  return { header: { name: BUNDLE_MANIFEST }, content: JSON.stringify(m) };
}

function assertRefused(verdict: BundleVerdict, entry: string, reason: RegExp) {
  assert.equal(verdict.valid, false, JSON.stringify(verdict));
  assert.equal(verdict.firstBadEntry, entry);
  assert.ok(verdict.reason?.includes(JSON.stringify(entry)), `the reason names ${entry}: ${verdict.reason}`);
  assert.match(verdict.reason!, reason);
}

describe('forged bundles', () => {
  it('the honest archive verifies', async () => {
    assert.equal((await verify(bundleEntries())).valid, true);
  });

  it('a second, edited manifest.json (the one tar -x keeps) is refused', async () => {
    const verdict = await verify([...bundleEntries(), editedManifest()]);
    assertRefused(verdict, BUNDLE_MANIFEST, /second entry of that name/);
  });

  it('a second copy of an attachment is refused, whichever copy holds the recorded bytes', async () => {
    const verdict = await verify([
      bundleEntries()[0]!,
      { header: { name: FILE_PATH }, content: 'forged bytes' },
      { header: { name: FILE_PATH }, content: FILE },
    ]);
    assertRefused(verdict, FILE_PATH, /second entry of that name/);
  });

  const unlisted: Array<[what: string, entry: TarEntry, reason: RegExp]> = [
    ['a path climbing out with ..', { header: { name: '../../../../tmp/x.sh' }, content: 'id' }, /`\.\.`/],
    ['a `..` inside a listed folder', { header: { name: 'attachments/../x.sh' }, content: 'id' }, /`\.\.`/],
    ['an absolute path', { header: { name: '/tmp/x.sh' }, content: 'id' }, /absolute path/],
    [
      'a symlink to /etc/passwd',
      { header: { name: 'passwd', type: 'symlink', linkname: '/etc/passwd' } },
      /symlink entry to \/etc\/passwd, not a regular file/,
    ],
    [
      'a symlink at the attachment’s own name',
      { header: { name: FILE_PATH, type: 'symlink', linkname: '/etc/passwd' } },
      /symlink entry to \/etc\/passwd/,
    ],
    [
      'a hard link',
      { header: { name: 'shadow', type: 'link', linkname: '/etc/shadow' } },
      /link entry to \/etc\/shadow, not a regular file/,
    ],
    ['a directory', { header: { name: 'attachments/', type: 'directory' } }, /directory entry/],
    [
      'a device',
      { header: { name: 'null', type: 'character-device', devmajor: 1, devminor: 3 } },
      /character-device entry/,
    ],
    [
      'a regular file the manifest does not list',
      { header: { name: 'notes.txt' }, content: 'x' },
      /not list/,
    ],
  ];
  for (const [what, entry, reason] of unlisted)
    it(`${what} is refused, named`, async () => {
      const verdict = await verify([...bundleEntries(), entry]);
      assertRefused(verdict, entry.header.name, reason);
    });

  it('a symlink in place of the manifest is refused', async () => {
    const verdict = await verify([
      { header: { name: BUNDLE_MANIFEST, type: 'symlink', linkname: '/etc/passwd' } },
      bundleEntries()[1]!,
    ]);
    assertRefused(verdict, BUNDLE_MANIFEST, /symlink/);
  });

  it('an entry after the end-of-archive blocks (tar -x stops there) is refused', async () => {
    const [manifestEntry, fileEntry] = bundleEntries();
    const first = await writeTar(join(dir, 'first.tar'), [manifestEntry!]);
    const second = await writeTar(join(dir, 'second.tar'), [fileEntry!]);
    const joined = join(dir, 'joined.tar');
    writeFileSync(joined, Buffer.concat([readFileSync(first), readFileSync(second)]));
    assertRefused(await verifyBundle(joined), FILE_PATH, /empty headers before it/);
  });

  it('a document snapshot edited in the manifest is refused: the history re-folded disagrees', async () => {
    const [, fileEntry] = bundleEntries();
    const verdict = await verify([editedManifest(), fileEntry!]);
    assert.equal(verdict.valid, false);
    assert.equal(verdict.firstBadEntry, 'document');
    assert.match(verdict.reason!, /not what its history folds to: \/valuesByTags\/total differ/);
  });

  it('a history entry whose changes were edited (no hash covers them) is refused', async () => {
    const m = manifest();
    m.history[1]!.changes = [{ path: '/valuesByTags/total', before: '100.00', after: '999999.00' }];
    const verdict = await verify([
      { header: { name: BUNDLE_MANIFEST }, content: JSON.stringify(m) },
      bundleEntries()[1]!,
    ]);
    assert.equal(verdict.firstBadEntry, 'history/2');
    assert.equal(verdict.firstBadRevision, 2);
    assert.match(verdict.reason!, /its changes are not what the event changed/);
  });

  it('an attachment listed under another name than the history records is refused', async () => {
    const m = manifest();
    m.attachments[0]!.fileName = 'contract-signed.pdf';
    const verdict = await verify([
      { header: { name: BUNDLE_MANIFEST }, content: JSON.stringify(m) },
      bundleEntries()[1]!,
    ]);
    assert.equal(verdict.firstBadEntry, FILE_PATH);
    assert.match(verdict.reason!, /lists another fileName than the history records/);
  });

  it('an attachment the manifest lists but the history does not record is refused', async () => {
    const m = manifest();
    const extra = { ...m.attachments[0]!, id: 'a'.repeat(24), path: `attachments/${'a'.repeat(24)}` };
    m.attachments.push(extra);
    const verdict = await verify([
      { header: { name: BUNDLE_MANIFEST }, content: JSON.stringify(m) },
      { header: { name: FILE_PATH }, content: FILE },
      { header: { name: extra.path }, content: FILE },
    ]);
    assert.equal(verdict.firstBadEntry, extra.path);
    assert.match(verdict.reason!, /the history does not record it/);
  });
});
