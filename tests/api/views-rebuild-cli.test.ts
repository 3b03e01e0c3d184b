/** The offline rebuild command: drop the view read model of a stopped system, replay, same answers. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { createDoc, eventually } from '../support/documents';
import { apiClient } from '../support/http';
import { REPO_ROOT } from '../support/process';
import { newAdminKey, startEmbedded } from '../support/targets';

/** Runs the command as `pnpm views:rebuild` does: in services/document, INIT_CWD the caller's directory. */
function rebuildCli(env: Record<string, string>, initCwd = REPO_ROOT) {
  const { INIT_CWD: _, ...inherited } = process.env;
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/views/rebuild-cli.ts'], {
    cwd: join(REPO_ROOT, 'services', 'document'),
    env: { ...inherited, INIT_CWD: initCwd, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('views:rebuild command', { timeout: 120_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'docflow-rebuild-'));
  const adminKey = newAdminKey();
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('replays every document event into an emptied read model, showing progress', async () => {
    const first = await startEmbedded({ adminKey, dataDir });
    const query = '/api/v2/docForm/view/all?pageSize=100&tags=cli';
    let before: Awaited<ReturnType<ReturnType<typeof apiClient>>>;
    try {
      for (let i = 0; i < 5; i++) {
        const res = await createDoc(first.baseUrl, adminKey, 'contract', { docForm: { _tags: ['cli'] } });
        assert.equal(res.status, 201, res.text);
      }
      const api = apiClient(first.baseUrl);
      before = await eventually(
        () => api('GET', query, { key: adminKey }),
        (r) => r.headers.get('svc-total-count') === '5',
      );
    } finally {
      await first.proc.stop();
    }

    // Damage the read model behind the projection's back: only a replay from the events can repair it.
    const db = new Database(join(dataDir, 'document', 'local.db'));
    db.exec('DELETE FROM view_docs; DELETE FROM view_doc_tags;');
    db.close();

    // Relative, as the default ./data is: resolved in the caller's directory, not services/document.
    const run = rebuildCli({ DOCFLOW_DATA_DIR: basename(dataDir) }, dirname(dataDir));
    assert.equal(run.status, 0, run.stderr);
    // Each progress line names the total; the last one says how long it took.
    assert.match(run.stdout, /views: events replayed: [\d,]+\/\d+ · [\d,]+\/s/);
    assert.match(
      run.stdout,
      /views: rebuilt in [\d.]+ s \(5 events, \d+ events\/s; replay [\d.]+ s, indexes [\d.]+ s, WAL copied into local.db [\d.]+ s\) · CPU [\d.]+ s, \d+ events per CPU second/,
    );
    // The indexes only listings read are built again after the replay.
    assert.match(run.stdout, /views: building index view_docs_newest/);

    const second = await startEmbedded({ adminKey, dataDir });
    try {
      const after = await apiClient(second.baseUrl)('GET', query, { key: adminKey });
      assert.equal(after.headers.get('svc-total-count'), '5');
      assert.deepEqual(after.body, before.body);

      // While docflow runs on the directory: refused, the views untouched.
      const refused = rebuildCli({ DOCFLOW_DATA_DIR: dataDir });
      assert.equal(refused.status, 4, refused.stdout);
      assert.match(refused.stderr, /views:rebuild: the data directory .*document is in use by process/);
      const still = await apiClient(second.baseUrl)('GET', query, { key: adminKey });
      assert.equal(still.headers.get('svc-total-count'), '5');
    } finally {
      await second.proc.stop();
    }
  });

  it('refuses a directory without a document event store, and creates nothing there', () => {
    const empty = mkdtempSync(join(tmpdir(), 'docflow-rebuild-none-'));
    try {
      const run = rebuildCli({ DOCFLOW_DATA_DIR: 'data' }, empty);
      assert.equal(run.status, 2, run.stdout);
      assert.match(
        run.stderr,
        new RegExp(`no document event store at ${join(empty, 'data', 'document', 'events.db')}`),
      );
      assert.equal(existsSync(join(empty, 'data')), false);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('refuses a store that holds no document event, and leaves the views as they are', () => {
    const bare = mkdtempSync(join(tmpdir(), 'docflow-rebuild-empty-'));
    try {
      mkdirSync(join(bare, 'document'));
      new Database(join(bare, 'document', 'events.db')).close();
      const run = rebuildCli({ DOCFLOW_DATA_DIR: bare });
      assert.equal(run.status, 2, run.stdout);
      assert.match(run.stderr, /holds no document event: nothing to rebuild/);
      assert.doesNotMatch(run.stdout, /rebuilt/);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});
