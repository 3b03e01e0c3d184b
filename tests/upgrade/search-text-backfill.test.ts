/**
 * Documents recognised before recognition kept text (issue 31): a data directory written by ca5520c,
 * the last commit before 73fbdae gave recognition its text and the views full-text search, holds an
 * invoice whose attachment was recognised without text. This checkout, started on it, reads the file
 * again in the background (the recognition service's text backfill) and the document becomes findable
 * by a word of its attachment; the search said nothing of it at first, and the document reads as it did.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { textPdf } from '@docflow/recognition';
import { createDoc, eventually } from '../support/documents';
import { apiClient } from '../support/http';
import { REPO_ROOT, startProcess } from '../support/process';
import {
  prepareRelease,
  releaseSkipReason,
  type StartedRelease,
  startRelease,
} from '../support/release-checkout';
import { newAdminKey } from '../support/targets';
import { withoutAdded } from './reads';

/** The last commit before recognised text and search (73fbdae): what "before search" wrote. */
const BEFORE_SEARCH = 'ca5520cbddcf46c05d30cbda69abb785990ac9d8';
const WORD = 'Quetzalcoatlite';
const PDF = textPdf([
  [{ text: 'INVOICE', size: 28 }, { text: `Supplier ${WORD} Ltd` }, { text: 'Total: 12.50' }],
]);
const BOUND_MS = 120_000;

describe('documents recognised before search get their searchable text', {
  skip: releaseSkipReason(BEFORE_SEARCH),
  timeout: 420_000,
}, () => {
  let dataDir: string;
  let current: StartedRelease | undefined;
  let docId: string;
  let asWritten: Record<string, unknown>;
  const adminKey = newAdminKey();
  const env = () => ({ DOCFLOW_DATA_DIR: dataDir, DOCFLOW_ADMIN_KEY: adminKey, LOG_LEVEL: 'info' });

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'docflow-before-search-'));
    const release = await prepareRelease(BEFORE_SEARCH);
    // A process group of its own: that release's server is a child of tsx, which a signal to pnpm
    // alone leaves running (holding the data directory); the whole group is stopped.
    const old = startProcess(
      ['pnpm', '--dir', release, 'start'],
      { PORT: '0', HOST: '127.0.0.1', ...env() },
      'docflow ca5520c',
      { detached: true },
    );
    const closed = once(old.child, 'close');
    const ready = await old.waitForLog((l) => l.msg === 'docflow listening');
    const baseUrl = `http://127.0.0.1:${ready.port}`;
    try {
      const created = await createDoc(baseUrl, adminKey, 'invoice', {
        docForm: {},
        files: [{ name: 'scan.pdf', content: PDF, type: 'application/pdf' }],
      });
      assert.equal(created.status, 201, created.text);
      docId = created.body._id;
      const api = apiClient(baseUrl);
      const read = await eventually(
        () => api('GET', `/api/v2/docForm/${docId}`, { key: adminKey }),
        (r) => r.body.recoStatus !== 'pending',
        BOUND_MS,
      );
      assert.equal(read.body.recoStatus, 'done', read.text);
      asWritten = read.body;
    } finally {
      process.kill(-old.child.pid!, 'SIGTERM');
      const killer = setTimeout(() => process.kill(-old.child.pid!, 'SIGKILL'), 30_000);
      await closed;
      clearTimeout(killer);
    }
    current = await startRelease(REPO_ROOT, env(), 'docflow (this checkout)');
  });
  after(async () => {
    await current?.proc.stop(30_000);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('is found by a word of its attachment once the backfill read it, and reads as before', async () => {
    const api = apiClient(current!.baseUrl);
    const search = () => api('GET', `/api/v2/docForm/view/all?q=${WORD}`, { key: adminKey });
    const found = await eventually(
      search,
      (r) => r.status === 200 && r.body.some?.((d: any) => d._id === docId),
      BOUND_MS,
    );
    assert.deepEqual(
      found.body.map((d: any) => d._id),
      [docId],
      found.text,
    );
    const backfilled = await current!.proc.waitForLog((l) => l.msg === 'text backfill: done');
    assert.equal(backfilled.recorded, 1, JSON.stringify(backfilled));
    const now = await api('GET', `/api/v2/docForm/${docId}`, { key: adminKey });
    const { _meta: metaNow, ...restNow } = now.body;
    const { _meta: metaBefore, ...restBefore } = asWritten;
    // A member the old release did not answer (a title) is no difference; what it answered reads the same.
    assert.deepEqual(
      withoutAdded(restNow, restBefore),
      restBefore,
      'the document reads as the old release had it',
    );
    assert.ok(metaNow, String(metaBefore));
  });
});
