/**
 * A recognition job survives the loss of the job queue (issue 31): the queue is a table of
 * recognition/local.db. A document's job is queued (and the document relay has handed its
 * `DocumentCreated` over for good), the process is killed before the job records a result, the
 * recognition service's local.db is removed, and after a restart the job runs again — queued from the
 * document service's documents whose recognition waits — and the document gets its one result.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { drawPage, imagePdf } from '@docflow/recognition';
import Database from 'better-sqlite3';
import { createDoc, eventually } from '../support/documents';
import { apiClient } from '../support/http';
import { newAdminKey, startEmbedded } from '../support/targets';

const INVOICE = [
  { text: 'INVOICE', size: 28 },
  { text: 'Invoice No. INV-2026-031' },
  { text: 'Total: 31.00' },
];
/** Pages enough that the job is still running when the process is killed. */
const PAGES = 4;
const ENV = { DOCFLOW_OCR_WORKERS: '1' };
const WAIT_MS = 120_000;

/** One value read from a SQLite file of the data directory (opened read-only, closed at once). */
function readOne<T>(file: string, sql: string, ...params: unknown[]): T | undefined {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(sql)
      .pluck()
      .get(...params) as T | undefined;
  } finally {
    db.close();
  }
}

describe('recognition jobs queued again after the job queue is lost', { timeout: 400_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'docflow-requeue-'));
  const adminKey = newAdminKey();
  after(() => rmSync(dataDir, { recursive: true, force: true }));
  const file = (service: string, name: string) => join(dataDir, service, name);

  it('runs the job of a document whose recognition was asked but has no result', async () => {
    const first = await startEmbedded({ adminKey, dataDir, env: ENV });
    let docId: string;
    try {
      const pdf = imagePdf(Array.from({ length: PAGES }, () => drawPage(INVOICE)));
      const created = await createDoc(first.baseUrl, adminKey, 'invoice', {
        files: [{ name: 'scan.pdf', content: pdf, type: 'application/pdf' }],
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.recoStatus, 'pending');
      docId = created.body._id;
      // Queued, and the relay's checkpoint past the DocumentCreated: it is not published again.
      const queuedAndHandedOver = async () => {
        const jobs = readOne<number>(
          file('recognition', 'local.db'),
          'SELECT COUNT(*) FROM recognition_jobs WHERE doc_id = ?',
          docId,
        );
        const position = readOne<number>(
          file('document', 'events.db'),
          'SELECT position FROM events WHERE stream_id = ? AND revision = 1',
          `docForm-${docId}`,
        );
        const relayed = readOne<string>(
          file('document', 'local.db'),
          "SELECT position FROM checkpoints WHERE name = 'document-relay'",
        );
        return jobs === 1 && position !== undefined && Number(relayed ?? 0) >= position;
      };
      assert.ok(await eventually(queuedAndHandedOver, (ok) => ok, 30_000), 'the job is queued');
    } finally {
      await first.proc.kill();
    }
    const results = readOne<number>(
      file('recognition', 'events.db'),
      'SELECT COUNT(*) FROM events WHERE stream_id = ?',
      `recognition-${docId}`,
    );
    assert.equal(results, 0, 'the job had not recorded a result when the process was killed');

    for (const name of ['local.db', 'local.db-wal', 'local.db-shm'])
      rmSync(file('recognition', name), { force: true });

    const next = await startEmbedded({ adminKey, dataDir, env: ENV });
    try {
      const api = apiClient(next.baseUrl);
      const read = await eventually(
        () => api('GET', `/api/v2/docForm/${docId}?embed=recoData`, { key: adminKey }),
        (r) => r.status === 200 && r.body.recoStatus !== 'pending',
        WAIT_MS,
      );
      assert.equal(read.body.recoStatus, 'done', JSON.stringify(read.body));
      assert.equal(read.body.recoData[0]?.valuesByTags.invoiceNo, 'INV-2026-031');
      const history = await api('GET', `/api/v2/docForm/${docId}/history`, { key: adminKey });
      const recorded = history.body.filter((e: { type: string }) => e.type.startsWith('Recognition'));
      assert.deepEqual(
        recorded.map((e: { type: string }) => e.type),
        ['RecognitionRecorded'],
        'one result, once',
      );
    } finally {
      await next.proc.stop();
    }
  });
});
