/**
 * Forged bundles and a lost blob (issue 29, finding 5 and the fifth item of 11), in every mode: a real
 * bundle exported from the service, forged the ways an attacker would (a second manifest, which
 * `tar -x` and Python's tarfile keep over the first; entries the manifest does not list, outside the
 * folder or absolute; links; a duplicate entry; an edited document snapshot) is refused by
 * `docflow verify`, the offending entry named. A document whose attachment's blob is gone verifies
 * `valid: false` with 200, the file named `missing`, and no error logged.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type TarEntry, tarOf } from '@docflow/audit/testing';
import { extract } from 'tar-stream';
import { docflow } from '../cli/run-docflow';
import { createDoc } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';

const MANIFEST = 'manifest.json';

const verifyForm = {
  name: 'verifyform',
  title: 'Verify form',
  formsystype: 1,
  tags: { total: 'string' },
};

type Entry = TarEntry & { content?: Buffer };

/** The entries of a tar archive, headers and bytes, in order. */
async function entriesOf(tar: Buffer): Promise<Entry[]> {
  const entries: Entry[] = [];
  const reader = extract();
  reader.end(tar);
  for await (const entry of reader) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    entries.push({
      header: { name: entry.header.name, type: entry.header.type },
      content: Buffer.concat(chunks),
    });
  }
  return entries;
}

/** The manifest entry with its document's total changed, as a forger would write it. */
function withEditedTotal(manifest: Entry): Entry {
  const edited = JSON.parse(manifest.content!.toString('utf8'));
  edited.document.valuesByTags.total = '999999.00';
  return { header: { name: MANIFEST }, content: Buffer.from(JSON.stringify(edited, null, 2)) };
}

/** Error-level lines (pino: level 50 and above) of a target's output after `from` characters. */
const errorLinesAfter = (target: Target, from: number) =>
  target
    .output()
    .slice(from)
    .split('\n')
    .filter((line) => /"level":(5|6)\d/.test(line));

for (const factory of targets()) {
  describe(`hostile bundles and lost blobs [${factory.name}]`, {
    skip: factory.skip,
    timeout: 300_000,
  }, () => {
    let target: Target;
    let api: Api;
    let admin: string;
    let dir: string;

    async function createdDoc(label: string) {
      const created = await createDoc(target.baseUrl, admin, verifyForm.name, {
        docForm: { valuesByTags: { total: '120.00' } },
        files: [{ name: `${label}.txt`, content: `${label} ${Date.now()} ${Math.random()}` }],
      });
      assert.equal(created.status, 201, created.text);
      return created.body as { _id: string; filesList: { id: string; fileName: string }[] };
    }

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      admin = target.adminKey;
      const put = await api('PUT', `/api/admin/v1/forms/${verifyForm.name}`, {
        key: admin,
        body: verifyForm,
      });
      assert.equal(put.status, 201, put.text);
      dir = mkdtempSync(join(tmpdir(), 'docflow-hostile-verify-'));
    });
    after(async () => {
      await target?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('docflow verify refuses every forgery of a real bundle, naming the entry', async () => {
      const doc = await createdDoc('evidence');
      const res = await fetch(`${target.baseUrl}/api/v2/docForm/${doc._id}/export`, {
        headers: { authorization: `Bearer ${admin}` },
      });
      assert.equal(res.status, 200);
      const bundle = Buffer.from(await res.arrayBuffer());
      const [manifest, attachment, ...rest] = await entriesOf(bundle);
      assert.equal(manifest?.header.name, MANIFEST);
      assert.equal(attachment?.header.name, `attachments/${doc.filesList[0]!.id}`);
      assert.deepEqual(rest, []);

      const run = async (file: string, tar: Buffer) => {
        writeFileSync(join(dir, file), tar);
        return docflow(['verify', file], { cwd: dir });
      };
      const honest = await run('honest.tar', bundle);
      assert.equal(honest.status, 0, honest.stdout + honest.stderr);
      assert.equal(JSON.parse(honest.stdout).valid, true);

      const payload = Buffer.from('#!/bin/sh\nid\n');
      const forgeries: Array<[what: string, entries: Entry[], named: string, reason: RegExp]> = [
        [
          'a second, edited manifest.json',
          [manifest, attachment, withEditedTotal(manifest)],
          MANIFEST,
          /second entry of that name/,
        ],
        [
          'an unlisted ../../../../tmp/x.sh',
          [manifest, attachment, { header: { name: '../../../../tmp/x.sh', mode: 0o755 }, content: payload }],
          '../../../../tmp/x.sh',
          /`\.\.` component/,
        ],
        [
          'an absolute path',
          [manifest, attachment, { header: { name: '/tmp/x.sh', mode: 0o755 }, content: payload }],
          '/tmp/x.sh',
          /absolute path/,
        ],
        [
          'a symlink to /etc/passwd',
          [manifest, attachment, { header: { name: 'passwd', type: 'symlink', linkname: '/etc/passwd' } }],
          'passwd',
          /symlink entry to \/etc\/passwd, not a regular file/,
        ],
        [
          'a hard link',
          [
            manifest,
            attachment,
            { header: { name: 'evidence', type: 'link', linkname: attachment.header.name } },
          ],
          'evidence',
          /link entry to attachments\/[0-9a-f]{24}, not a regular file/,
        ],
        [
          'a duplicate attachment entry',
          [manifest, { ...attachment, content: Buffer.from('forged') }, attachment],
          attachment.header.name,
          /second entry of that name/,
        ],
      ];
      for (const [what, entries, named, reason] of forgeries) {
        const forged = await run('forged.tar', await tarOf(entries));
        assert.equal(forged.status, 1, `${what}: ${forged.stdout}${forged.stderr}`);
        const verdict = JSON.parse(forged.stdout);
        assert.equal(verdict.valid, false, what);
        assert.equal(verdict.firstBadEntry, named, what);
        assert.ok(verdict.reason.includes(JSON.stringify(named)), `${what}: ${verdict.reason}`);
        assert.match(verdict.reason, reason, what);
      }

      const snapshot = await run('snapshot.tar', await tarOf([withEditedTotal(manifest), attachment]));
      assert.equal(snapshot.status, 1, snapshot.stdout + snapshot.stderr);
      const verdict = JSON.parse(snapshot.stdout);
      assert.equal(verdict.firstBadEntry, 'document');
      assert.match(verdict.reason, /not what its history folds to: \/valuesByTags\/total differ/);
    });

    it('/verify of a lost blob: 200, the file named missing, no error logged; its download 404', async () => {
      const doc = await createdDoc('lost');
      const file = doc.filesList[0]!;
      const created = await api('GET', `/api/v2/docForm/${doc._id}/history`, { key: admin });
      const sha256: string = created.body[0].data.files[0].sha256;
      await target.tamperBlob(sha256, 'remove');
      const logged = target.output().length;

      const res = await api('GET', `/api/v2/docForm/${doc._id}/verify`, { key: admin });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.valid, false);
      assert.equal(res.body.firstBadRevision, 1);
      assert.equal(
        res.body.reason,
        `attachment ${file.id} (${file.fileName}): its bytes are missing from the blob store`,
      );
      assert.deepEqual(
        res.body.attachments.map((a: any) => ({
          id: a.id,
          fileName: a.fileName,
          status: a.status,
          valid: a.valid,
        })),
        [{ id: file.id, fileName: file.fileName, status: 'missing', valid: false }],
      );

      const download = await api('GET', `/api/v2/docForm/${doc._id}/file/${file.id}`, { key: admin });
      assert.equal(download.status, 404, download.text);
      assert.match(download.headers.get('content-type') ?? '', /application\/problem\+json/);
      assert.deepEqual(errorLinesAfter(target, logged), []);
    });
  });
}
