/**
 * `docflow backup` and `docflow restore` (issue 31): a backup taken while an embedded server takes
 * creates with files, restored into an empty directory and served again, holds every write
 * acknowledged before the backup started, every restored document verifies, and new writes work; a
 * damaged backup and a directory that is not empty are refused.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createDoc, eventually } from '../support/documents';
import { apiClient } from '../support/http';
import { startEmbedded, type Target } from '../support/targets';
import {
  type AcknowledgedWrite,
  badAnswers,
  converge,
  describeAnswers,
  startWriteLoad,
} from '../support/write-load';
import { answer, docflow } from './run-docflow';

/** Writes acknowledged before the backup starts, at least. */
const WRITES_BEFORE = 20;
/** Bounds of the load: it is stopped once the backup is done, or ends by these first. */
const MAX_WRITES = 600;
const MAX_LOAD_MS = 180_000;
const CONVERGE_MS = 30_000;

describe('docflow backup and restore', { timeout: 600_000 }, () => {
  const scratch = mkdtempSync(join(tmpdir(), 'docflow-backup-'));
  const backupDir = join(scratch, 'backup');
  let live: Target | undefined;
  let restored: Target | undefined;
  after(async () => {
    await live?.stop();
    await restored?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  let acknowledgedBefore: AcknowledgedWrite[] = [];

  before(async () => {
    live = await startEmbedded();
  });

  it('backs up a serving data directory under write load, without disturbing the writes', async (t) => {
    const { baseUrl, adminKey, dataDir } = live!;
    const load = startWriteLoad({
      baseUrl,
      adminKey,
      maxWrites: MAX_WRITES,
      maxMs: MAX_LOAD_MS,
      fileBytes: 16 * 1024,
    });
    await eventually(
      async () => load.acknowledgedCount(),
      (n) => n >= WRITES_BEFORE,
      MAX_LOAD_MS,
    );
    const before = load.acknowledgedCount();
    const run = await docflow(['backup', backupDir, '--data-dir', dataDir]);
    const during = load.acknowledgedCount() - before;
    const result = await load.stop();
    const summary = answer(run);
    acknowledgedBefore = result.acknowledged.slice(0, before);
    t.diagnostic(
      `acknowledged: ${before} before the backup, ${during} while it ran, ${result.acknowledged.length} in all; ` +
        `backup: ${JSON.stringify({ files: summary.files, bytes: summary.bytes, blobs: summary.blobs, snapshotWindowMs: summary.snapshotWindowMs })}`,
    );

    assert.ok(during > 0, 'writes were acknowledged while the backup ran');
    assert.ok(result.acknowledged.length < MAX_WRITES, 'the load was still running when the backup ended');
    assert.deepEqual(describeAnswers(badAnswers(result.answers)), [], 'every write answered 2xx');
    assert.ok(summary.blobs.copied >= before / 2, `blobs copied: ${JSON.stringify(summary.blobs)}`);
    assert.deepEqual(summary.skipped, []);
    assert.match(run.stderr, /^backup: identity\/keys\.db \d+\/\d+ pages/m, 'progress on stderr');
    assert.match(run.stderr, /^backup: blobs \d+\/\d+ blobs/m);

    const manifest = JSON.parse(readFileSync(join(backupDir, 'manifest.json'), 'utf8'));
    assert.equal(manifest.snapshotAt, summary.snapshotAt);
    assert.match(manifest.docflow.version, /^\d+\.\d+\.\d+/);
    const kinds = new Set(manifest.files.map((f: { kind: string }) => f.kind));
    assert.deepEqual([...kinds].sort(), ['blob', 'event-store', 'key-store', 'read-model']);
    for (const service of ['gateway', 'identity', 'files', 'workflow', 'document', 'recognition', 'webhooks'])
      assert.ok(
        manifest.files.some((f: { path: string }) => f.path === `${service}/events.db`),
        `${service}'s event store is in the backup`,
      );
  });

  it('backs up into the same directory again: only new blobs are copied', async () => {
    const first = JSON.parse(readFileSync(join(backupDir, 'manifest.json'), 'utf8'));
    const blobsBefore = first.files.filter((f: { kind: string }) => f.kind === 'blob').length;
    const summary = answer(await docflow(['backup', backupDir, '--data-dir', live!.dataDir]));
    assert.equal(summary.blobs.present, blobsBefore);
    await live!.stop();
    live = undefined;
  });

  it('restores into an empty directory; the server starts on it with every write acknowledged before the backup, each document verifying', async () => {
    const dataDir = join(scratch, 'restored');
    const run = await docflow(['restore', backupDir, dataDir]);
    answer(run);
    assert.match(run.stderr, /^restore: verify \d+\/\d+ files/m);
    restored = await startEmbedded({ dataDir });
    const { baseUrl, adminKey } = restored;

    const { problems } = await converge(baseUrl, adminKey, acknowledgedBefore, CONVERGE_MS);
    assert.deepEqual(problems, [], 'every write acknowledged before the backup is there, once');

    const api = apiClient(baseUrl);
    const ids: string[] = [];
    for (let first = 0; ; first += 100) {
      const page = await api('GET', `/api/v2/docForm/view/all?first=${first}&pageSize=100`, {
        key: adminKey,
      });
      ids.push(...(page.body as Array<{ _id: string }>).map((d) => d._id));
      if (page.body.length < 100) break;
    }
    assert.ok(ids.length >= acknowledgedBefore.filter((w) => w.kind === 'document').length);
    const invalid: string[] = [];
    for (const id of ids) {
      const verdict = await api('GET', `/api/v2/docForm/${id}/verify`, { key: adminKey });
      if (verdict.status !== 200 || verdict.body.valid !== true)
        invalid.push(`${id}: ${verdict.status} ${verdict.text}`);
    }
    assert.deepEqual(invalid, [], 'every restored document verifies');

    const created = await createDoc(baseUrl, adminKey, 'memo', {
      docForm: { valuesByTags: { subject: 'after the restore' } },
      files: [{ name: 'new.txt', content: 'written after the restore' }],
    });
    assert.equal(created.status, 201, created.text);
  });

  it('refuses a backup whose file was changed or removed, naming it, and writes nothing', async () => {
    const manifest = JSON.parse(readFileSync(join(backupDir, 'manifest.json'), 'utf8'));
    const blob = manifest.files.find((f: { kind: string }) => f.kind === 'blob').path as string;

    const changed = join(scratch, 'changed');
    cpSync(backupDir, changed, { recursive: true });
    writeFileSync(join(changed, blob), 'not what was stored');
    const target = join(scratch, 'from-changed');
    const run = await docflow(['restore', changed, target]);
    assert.equal(run.status, 1, run.stderr);
    assert.ok(run.stderr.includes(`does not verify, nothing was restored: ${blob}:`), run.stderr);
    assert.equal(existsSync(target), false);

    const cut = join(scratch, 'cut');
    cpSync(backupDir, cut, { recursive: true });
    rmSync(join(cut, 'identity', 'keys.db'));
    const cutRun = await docflow(['restore', cut, target]);
    assert.equal(cutRun.status, 1, cutRun.stderr);
    assert.match(cutRun.stderr, /identity\/keys\.db: missing/);
    assert.equal(existsSync(target), false);
  });

  it('refuses to restore into a directory that is not empty, and leaves it alone', async () => {
    const target = mkdtempSync(join(scratch, 'busy-'));
    writeFileSync(join(target, 'keep.txt'), 'mine');
    const run = await docflow(['restore', backupDir, target]);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /is not an empty directory/);
    assert.equal(readFileSync(join(target, 'keep.txt'), 'utf8'), 'mine');
    assert.equal(existsSync(join(target, 'identity')), false);
  });
});
