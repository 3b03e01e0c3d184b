/**
 * The recognition service's own durable queue of jobs (one per attachment to recognise), a table in
 * its local database: the bus consumer only puts jobs here and acknowledges, so a file that takes
 * minutes holds no bus consumer. A job stays in the table until it is finished; one taken by a
 * process that died is taken again after the restart (`releaseTaken`).
 */
import type { LocalDb } from '@docflow/kit/eventsourcing';

export interface QueuedJob {
  seq: number;
  /** The job as it was queued (JSON). */
  job: string;
  /** Runs that failed before (the first run: 0). */
  attempts: number;
}

export interface JobQueue {
  /** Queues the jobs, in order; a job already queued for the same document and file is kept as it is. */
  enqueue(jobs: readonly { docId: string; fileId: string; job: string }[]): void;
  /**
   * Takes the oldest job due at `nowMs` that is the first left of its document, or undefined: a
   * document's files are recognised one after the other, in order, as before the queue.
   */
  take(nowMs: number): QueuedJob | undefined;
  finish(seq: number): void;
  /** Puts a job whose run failed back, to be taken again from `notBeforeMs` on. */
  retryLater(seq: number, attempts: number, notBeforeMs: number): void;
  /** Puts back every job taken by an earlier run of this process: it did not finish them. */
  releaseTaken(): number;
  /** When the next waiting job is due (ms since the epoch), or undefined when none waits. */
  nextDue(): number | undefined;
  /** Jobs waiting to be taken, and jobs taken and not finished. */
  counts(): { waiting: number; taken: number };
}

export function createJobQueue(db: LocalDb): JobQueue {
  db.exec(`
    CREATE TABLE IF NOT EXISTS recognition_jobs (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      doc_id TEXT NOT NULL,
      file_id TEXT NOT NULL,
      job TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      not_before INTEGER NOT NULL DEFAULT 0,
      taken INTEGER NOT NULL DEFAULT 0,
      UNIQUE (doc_id, file_id)
    );
    CREATE INDEX IF NOT EXISTS recognition_jobs_waiting ON recognition_jobs (taken, not_before, seq);
    CREATE INDEX IF NOT EXISTS recognition_jobs_by_doc ON recognition_jobs (doc_id, seq);
  `);
  const insert = db.prepare('INSERT OR IGNORE INTO recognition_jobs (doc_id, file_id, job) VALUES (?, ?, ?)');
  const enqueueAll = db.transaction((jobs: readonly { docId: string; fileId: string; job: string }[]) => {
    for (const { docId, fileId, job } of jobs) insert.run(docId, fileId, job);
  });
  const takeOldest = db.prepare<[number], QueuedJob>(`
    UPDATE recognition_jobs SET taken = 1
    WHERE seq = (
      SELECT seq FROM recognition_jobs j
      WHERE taken = 0 AND not_before <= ?
        AND NOT EXISTS (SELECT 1 FROM recognition_jobs e WHERE e.doc_id = j.doc_id AND e.seq < j.seq)
      ORDER BY seq LIMIT 1
    )
    RETURNING seq, job, attempts`);
  const remove = db.prepare('DELETE FROM recognition_jobs WHERE seq = ?');
  const putBack = db.prepare(
    'UPDATE recognition_jobs SET taken = 0, attempts = ?, not_before = ? WHERE seq = ?',
  );
  const release = db.prepare('UPDATE recognition_jobs SET taken = 0 WHERE taken = 1');
  const due = db.prepare<[], { due: number | null }>(
    'SELECT MIN(not_before) AS due FROM recognition_jobs WHERE taken = 0',
  );
  const count = db.prepare<[], { waiting: number; taken: number }>(
    'SELECT COUNT(*) - COALESCE(SUM(taken), 0) AS waiting, COALESCE(SUM(taken), 0) AS taken FROM recognition_jobs',
  );
  return {
    enqueue: (jobs) => enqueueAll(jobs),
    take: (nowMs) => takeOldest.get(nowMs),
    finish: (seq) => {
      remove.run(seq);
    },
    retryLater: (seq, attempts, notBeforeMs) => {
      putBack.run(attempts, notBeforeMs, seq);
    },
    releaseTaken: () => release.run().changes,
    nextDue: () => due.get()?.due ?? undefined,
    counts: () => count.get()!,
  };
}
