/** The offline rebuild command: drop the view read model of a stopped system, replay, same answers. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { createDoc, eventually } from '../support/documents';
import { apiClient } from '../support/http';
import { REPO_ROOT } from '../support/process';
import { newAdminKey, startEmbedded } from '../support/targets';

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

    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'services/document/src/views/rebuild-cli.ts'],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, DOCFLOW_DATA_DIR: dataDir },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /views: rebuilt in [\d.]+ s/);

    const second = await startEmbedded({ adminKey, dataDir });
    try {
      const after = await apiClient(second.baseUrl)('GET', query, { key: adminKey });
      assert.equal(after.headers.get('svc-total-count'), '5');
      assert.deepEqual(after.body, before.body);
    } finally {
      await second.proc.stop();
    }
  });
});
