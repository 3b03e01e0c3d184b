/**
 * Runs the queued recognition jobs, oldest first, a few at a time: a file that takes minutes holds
 * one runner, and the others go on with the next documents. A job that throws is queued again with
 * back-off; after `retry.attempts` runs it is abandoned (the caller records why): decided by
 * `decideFailedRun` (businessLogic.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@docflow/kit';
import { decideFailedRun, type JobRetryPolicy } from './businessLogic';
import type { JobQueue, QueuedJob } from './job-queue';

/** A file the files service cannot hand out now is tried for some minutes before the job gives up. */
export const DEFAULT_JOB_RETRY: JobRetryPolicy = { attempts: 8, initialMs: 1_000, maxMs: 60_000 };

/** How long stop() lets the jobs in hand end; a job cut short is run again after the restart. */
const STOP_GRACE_MS = 1_000;

export interface JobRunnerOptions {
  queue: JobQueue;
  /** Jobs run at once. */
  concurrency: number;
  /**
   * Runs one job (as queued); throws when it should be run again later. Once `stopping` is aborted it
   * must record nothing more (what it would record may be the stop's doing) and throw.
   */
  run(job: string, stopping: AbortSignal): Promise<void>;
  /** Records that a job failed `attempts` times; it is then dropped (throws: kept and tried later). */
  abandon(job: string, attempts: number): Promise<void>;
  retry?: JobRetryPolicy;
  log: Logger;
}

export interface JobRunner {
  /** Tells the runners that jobs were queued. */
  wake(): void;
  /** Takes no new job, tells the jobs in hand to stop, and lets them end for a moment. */
  stop(): Promise<void>;
}

/**
 * Starts `concurrency` runners over the queue, after putting back the jobs an earlier run of the
 * process had taken and not finished.
 *
 * @example
 * const runner = startJobRunner({ queue, concurrency: 4, run, abandon, log });
 * queue.enqueue(jobs);
 * runner.wake();
 */
export function startJobRunner(options: JobRunnerOptions): JobRunner {
  const { queue, run, abandon, log } = options;
  const retry = options.retry ?? DEFAULT_JOB_RETRY;
  const stopping = new AbortController();
  const idle = new Set<() => void>();

  const released = queue.releaseTaken();
  if (released > 0)
    log.info({ jobs: released }, 'recognition jobs left unfinished by the last run queued again');

  function wake(): void {
    for (const done of [...idle]) done();
  }

  /** Until jobs are queued, the next delayed one is due, or the runner stops. */
  function work(): Promise<void> {
    return new Promise((resolve) => {
      const due = queue.nextDue();
      const timer = due === undefined ? undefined : setTimeout(done, Math.max(0, due - Date.now()));
      function done() {
        clearTimeout(timer);
        idle.delete(done);
        resolve();
      }
      idle.add(done);
    });
  }

  async function failed({ seq, job, attempts }: QueuedJob, error: unknown): Promise<void> {
    const next = decideFailedRun({ attempts }, retry, Date.now());
    const runs = next.data.attempts;
    if (next.type === 'GivenUp') {
      try {
        await abandon(job, runs);
        queue.finish(seq);
        log.error({ err: error, attempts: runs }, 'recognition job abandoned');
        return;
      } catch (abandonError) {
        log.error({ err: abandonError }, 'recognition job could not be abandoned; kept');
      }
    }
    log.warn({ err: error, attempts: runs }, 'recognition job failed; queued again');
    queue.retryLater(seq, runs, next.data.retryAt);
  }

  async function runOne(taken: QueuedJob): Promise<void> {
    try {
      await run(taken.job, stopping.signal);
    } catch (error) {
      // Stopping: the job stays taken, and the next start queues it again.
      if (!stopping.signal.aborted) await failed(taken, error);
      return;
    }
    try {
      queue.finish(taken.seq);
    } catch (error) {
      // The local database closed behind a stopped runner: the job is run again and finds its result.
      if (!stopping.signal.aborted) throw error;
    }
  }

  async function runner(): Promise<void> {
    while (!stopping.signal.aborted) {
      try {
        const taken = queue.take(Date.now());
        if (taken) await runOne(taken);
        else await work();
      } catch (error) {
        // The local database failed: what was taken stays taken until the next start.
        log.error({ err: error }, 'recognition job queue failed');
        await work();
      }
    }
  }

  const runners = Array.from({ length: options.concurrency }, runner);
  return {
    wake,
    async stop() {
      stopping.abort();
      wake();
      await Promise.race([Promise.all(runners), sleep(STOP_GRACE_MS, undefined, { ref: false })]);
    },
  };
}
