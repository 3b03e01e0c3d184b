/**
 * Job requeue (issue 31): the job queue is a table of local.db, so a lost (or new) local.db would
 * leave every job not finished unrun and its document `pending` for ever. At start, in the background,
 * until one pass has read to the end, the service asks the document service for the live documents
 * whose recognition waits, a page at a time, and queues again each of their pending files whose result
 * its own `recognition-` streams do not hold (decideRequeue): the jobs the bus handler queued from the
 * same `DocumentCreated`. Once each: the queue keeps one job per document and file, and a run that
 * finds a result recorded records nothing. The checkpoint keeps the last document done, so a stop
 * resumes after it; the document service away (or its views catching up) is retried with back-off.
 */
import { type PendingRecognitionPage, recognitionStream } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import type { Logger } from '@docflow/kit';
import { type CheckpointStore, loadAggregate } from '@docflow/kit/eventsourcing';
import { startWithRetry } from '@docflow/kit/runner';
import { decideRequeue } from './businessLogic';
import type { JobQueue } from './job-queue';
import { queueRows } from './jobs';
import { resultsAggregate } from './results';

const CHECKPOINT = 'recognition.job-requeue';
/** The checkpoint's value once a pass has read every page. */
const DONE = 'done';
/** The document service may start after this one (it answers 503 while its views catch up). */
const BACKOFF = { initialMs: 100, maxMs: 5000, random: Math.random };

export interface JobRequeueDeps {
  store: EventStore;
  queue: JobQueue;
  /** One page of the documents whose recognition waits, after document `after` (the first without). */
  fetchPage(after: string | undefined): Promise<PendingRecognitionPage>;
  /** Called after jobs were queued: the runners look for them. */
  queued(): void;
  checkpoints: CheckpointStore;
  log: Logger;
}

export interface JobRequeue {
  /** Resolves when the pass ends: true once every page was read (now or at an earlier start). */
  done: Promise<boolean>;
  /** Whether every page was read (now or at an earlier start). */
  finished(): boolean;
  stop(): Promise<void>;
}

export function startJobRequeue(deps: JobRequeueDeps): JobRequeue {
  const { checkpoints, log } = deps;
  const stopping = new AbortController();
  let queued = 0;

  async function requeue(page: PendingRecognitionPage['documents']): Promise<void> {
    for (const { created, pending } of page) {
      const docId = created.streamId.slice('docForm-'.length);
      const { state } = await loadAggregate(deps.store, recognitionStream(docId), resultsAggregate);
      const jobs = decideRequeue({ envelope: created, pending }, state);
      if (jobs.length === 0) continue;
      deps.queue.enqueue(queueRows(jobs));
      queued += jobs.length;
      deps.queued();
    }
  }

  async function pass(): Promise<void> {
    let after = checkpoints.load(CHECKPOINT);
    if (after === DONE) return;
    while (!stopping.signal.aborted) {
      const page = await deps.fetchPage(after);
      await requeue(page.documents);
      if (page.next === null) {
        checkpoints.save(CHECKPOINT, DONE);
        log.info({ queued }, 'job requeue: done');
        return;
      }
      after = page.next;
      checkpoints.save(CHECKPOINT, after);
    }
  }

  const done = startWithRetry(pass, {
    signal: stopping.signal,
    backoff: BACKOFF,
    onFailure: (err, attempt, retryInMs) =>
      log.info({ err, attempt, retryInMs }, 'job requeue: asking the document service failed, retrying'),
  });
  const finished = () => checkpoints.load(CHECKPOINT) === DONE;

  return {
    done: done.then((ended) => ended && finished()),
    finished,
    async stop() {
      stopping.abort();
      await done;
    },
  };
}
