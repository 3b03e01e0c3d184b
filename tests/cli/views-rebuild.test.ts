/** `docflow views rebuild`: rebuilds the views of a stopped data directory, refuses one a process holds. */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { createDoc } from '../support/documents';
import { newAdminKey, startEmbedded } from '../support/targets';
import { docflow } from './run-docflow';

const viewDocs = (dataDir: string) => {
  const db = new Database(join(dataDir, 'document', 'local.db'));
  try {
    return (db.prepare('SELECT count(*) AS n FROM view_docs').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('docflow views rebuild', { timeout: 180_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'docflow-cli-rebuild-'));
  const live = join(work, 'live');
  after(() => rmSync(work, { recursive: true, force: true }));

  it('refuses a data directory a running process holds (exit 4), and rebuilds a stopped copy', async () => {
    const adminKey = newAdminKey();
    const running = await startEmbedded({ adminKey, dataDir: live });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await createDoc(running.baseUrl, adminKey, 'contract', {
          docForm: { _tags: ['rebuild'] },
        });
        assert.equal(res.status, 201, res.text);
      }
      // Relative to the directory the command runs in.
      const refused = await docflow(['views', 'rebuild', '--data-dir', 'live'], { cwd: work });
      assert.equal(refused.status, 4, refused.stdout + refused.stderr);
      assert.match(refused.stderr, /the data directory .*live\/document is in use by process \d+/);
      assert.doesNotMatch(refused.stdout, /rebuilt/);
    } finally {
      await running.proc.stop();
    }

    const copy = join(work, 'copy');
    cpSync(live, copy, { recursive: true });
    const db = new Database(join(copy, 'document', 'local.db'));
    db.exec('DELETE FROM view_docs; DELETE FROM view_doc_tags;');
    db.close();
    assert.equal(viewDocs(copy), 0);

    // The data directory from the environment, relative to where the command was started (pnpm: INIT_CWD).
    const run = await docflow(['views', 'rebuild'], { env: { DOCFLOW_DATA_DIR: 'copy', INIT_CWD: work } });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /views: events replayed: [\d,]+\/\d+ · [\d,]+\/s/);
    assert.match(run.stdout, /views: rebuilt in [\d.]+ s \(\d+ events/);
    assert.equal(viewDocs(copy), viewDocs(live));
    assert.ok(viewDocs(copy) >= 3);
  });

  it('refuses a directory that is no data directory (exit 2), creating nothing', async () => {
    const run = await docflow(['views', 'rebuild', '--data-dir', 'nowhere'], { cwd: work });
    assert.equal(run.status, 2);
    assert.match(
      run.stderr,
      new RegExp(`no document event store at ${join(work, 'nowhere', 'document', 'events.db')}`),
    );
  });
});
