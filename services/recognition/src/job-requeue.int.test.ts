/**
 * The job requeue on a real SQLite store and job queue, the document service's pages given here: the
 * pending files without a result here are queued, page by page, once; a page that fails is asked
 * again; a pass that read every page is not run again.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type EventEnvelope, type PendingRecognitionPage, recognitionStream } from '@docflow/contracts';
import { createSqliteEventStore } from '@docflow/eventstore';
import { createLogger } from '@docflow/kit';
import { checkpointStore, openLocalDb } from '@docflow/kit/eventsourcing';
import { RecognitionJob } from './job';
import { createJobQueue } from './job-queue';
import { startJobRequeue } from './job-requeue';

const log = createLogger('test', 'silent');
const DOC_A = 'a'.repeat(24);
const DOC_B = 'b'.repeat(24);
const FILE = (n: number) => `${n}`.repeat(24);
const AT = '2026-11-26T00:00:00.000Z';

/** The DocumentCreated of a document with files `fileIds` whose form recognises something. */
function created(docId: string, fileIds: string[]): EventEnvelope {
  return {
    id: randomUUID(),
    type: 'DocumentCreated',
    version: 1,
    streamId: `docForm-${docId}`,
    revision: 1,
    recordedAt: AT,
    data: {
      id: docId,
      form: 'invoice',
      formsystype: 1,
      author: 'alice',
      valuesByTags: {},
      tags: [],
      files: fileIds.map((id) => ({
        id,
        fileName: `${id}.png`,
        size: 1,
        sha256: 'c'.repeat(64),
        contentType: 'image/png',
      })),
      datedue: '',
      recognition: {
        form: { name: 'invoice', title: 'Invoice', formsystype: 1, tags: {} },
        idpLangs: 'eng',
        idpFrpr: false,
      },
    },
    metadata: { correlationId: 'c', timestamp: AT },
  };
}

describe('job requeue (SQLite store and queue)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-job-requeue-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('queues each pending file without a result here once, reading every page; not again after', async () => {
    const store = createSqliteEventStore({ file: join(dir, 'events.db') });
    const db = openLocalDb(join(dir, 'local.db'));
    const queue = createJobQueue(db);
    // FILE(2)'s result is recorded here, not yet in the document's stream: it is not run again.
    await store.append(
      recognitionStream(DOC_A),
      [
        {
          id: randomUUID(),
          type: 'FileRecognitionFailed',
          version: 1,
          data: { fileId: FILE(2), reason: 'unsupported-type', detail: 'd' },
          metadata: { correlationId: 'c', timestamp: AT },
        },
      ],
      0,
    );
    const pages: Record<string, PendingRecognitionPage> = {
      first: {
        documents: [{ created: created(DOC_A, [FILE(1), FILE(2), FILE(3)]), pending: [FILE(2), FILE(3)] }],
        next: DOC_A,
      },
      [DOC_A]: { documents: [{ created: created(DOC_B, [FILE(4)]), pending: [FILE(4)] }], next: null },
    };
    const asked: (string | undefined)[] = [];
    let failOnce = true;
    const fetchPage = async (after: string | undefined) => {
      asked.push(after);
      if (after === DOC_A && failOnce) {
        failOnce = false;
        throw new Error('the document service is away');
      }
      return pages[after ?? 'first']!;
    };
    let woken = 0;
    const deps = {
      store,
      queue,
      fetchPage,
      queued: () => woken++,
      checkpoints: checkpointStore(db),
      log,
    };
    assert.equal(await startJobRequeue(deps).done, true);
    assert.deepEqual(asked, [undefined, DOC_A, DOC_A], 'the failed page asked again, not the first');
    assert.ok(woken > 0);
    const jobs = [];
    for (let job = queue.take(Date.now()); job; job = queue.take(Date.now())) {
      jobs.push(RecognitionJob.parse(JSON.parse(job.job)));
      queue.finish(job.seq);
    }
    assert.deepEqual(
      jobs.map((j) => [j.docId, j.file.id]),
      [
        [DOC_A, FILE(3)],
        [DOC_B, FILE(4)],
      ],
    );
    assert.equal(await startJobRequeue(deps).done, true);
    assert.equal(asked.length, 3, 'a pass that read every page is not run again');
    db.close();
    await store.close();
  });
});
