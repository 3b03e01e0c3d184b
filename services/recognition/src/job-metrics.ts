/** The depth of the recognition job queue, measured on scrape: what waits, and what is in hand. */
import { measuredGauge } from '@docflow/kit/http';
import type { JobQueue } from './job-queue';

const jobs = measuredGauge(
  'docflow_recognition_jobs',
  'Recognition jobs in the service’s own queue, by state (waiting, running), measured on scrape',
  ['state'],
);

/** Reports `queue` until the returned function is called. */
export function trackJobQueue(queue: JobQueue): () => void {
  const untrack = [
    jobs.track({ state: 'waiting' }, async () => queue.counts().waiting),
    jobs.track({ state: 'running' }, async () => queue.counts().taken),
  ];
  return () => {
    for (const stop of untrack) stop();
  };
}
