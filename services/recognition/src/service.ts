/** Composition of the recognition service: used by the embedded runner and by main.ts. */
import type { BlobStore } from '@docflow/blobstore';
import type { Consumer } from '@docflow/bus';
import { INTERNAL_PATHS, topicsOf } from '@docflow/contracts';
import type { Subscription } from '@docflow/eventstore';
import { checkpointStore } from '@docflow/kit/eventsourcing';
import {
  createServiceApp,
  relayOwnStreams,
  type ServiceBaseDeps,
  type ServiceClient,
} from '@docflow/kit/http';
import type { Hono } from 'hono';
import { trackJobQueue } from './job-metrics';
import { createJobQueue } from './job-queue';
import { type JobRequeue, startJobRequeue } from './job-requeue';
import { type JobRunner, startJobRunner } from './job-runner';
import { jobAbandoner, jobRunner, queueJobsHandler } from './jobs';
import { memoryRoutes } from './memory/api';
import { correctionsHandler } from './memory/corrections-consumer';
import { instrumentOcrPool } from './ocr-metrics';
import { createOcrPool, type OcrPool } from './ocr-pool';
import { traceOcrPool } from './ocr-tracing';
import { pageApi } from './page-api';
import { pageImages } from './page-images';
import { pendingRecognitionFromDocument } from './pending-recognition';
import { startTextBackfill, type TextBackfill } from './text-backfill';

export interface RecognitionServiceDeps extends ServiceBaseDeps {
  files: ServiceClient;
  /** The document service: which documents still wait for recognition, when the job queue is lost. */
  document: ServiceClient;
  /** Where page layouts and page images are kept: shared by every recognition instance. */
  blobs: BlobStore;
  /** Tesseract workers (default: the number of cores). */
  ocrWorkers?: number;
  /** Files recognised at once (default 4): a large file holds one of them, the others go on. */
  jobConcurrency?: number;
}

const DEFAULT_JOB_CONCURRENCY = 4;

export interface RecognitionService {
  app: Hono;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createRecognitionService(deps: RecognitionServiceDeps): RecognitionService {
  const { store, bus, log } = deps;
  // Workers take seconds to start and warm up, and most starts never need them: start them on first use.
  let pool: Promise<OcrPool> | undefined;
  const lazyPool = () => {
    pool ??= createOcrPool({ size: deps.ocrWorkers }).then(instrumentOcrPool).then(traceOcrPool);
    return pool;
  };
  let requeue: JobRequeue | undefined;
  const app = createServiceApp(deps, {
    guarded: ['/api/*', INTERNAL_PATHS],
    readiness: {
      // Until then a job lost with the queue is missing from it (as the files service's index).
      jobRequeue: async () => {
        if (!requeue?.finished()) throw new Error('the jobs of a lost queue are not queued again yet');
      },
    },
  });
  app.route('/', memoryRoutes(store));
  const queue = createJobQueue(deps.db);
  const jobDeps = {
    store,
    files: deps.files,
    blobs: deps.blobs,
    internalToken: deps.internalToken,
    pool: lazyPool,
    log,
  };
  app.route(
    '/',
    pageApi({
      store,
      blobs: deps.blobs,
      files: deps.files,
      internalToken: deps.internalToken,
      pageImage: pageImages({ db: deps.db, blobs: deps.blobs, pool: lazyPool }),
    }),
  );
  let relay: Subscription | undefined;
  let consumer: Consumer | undefined;
  let corrections: Consumer | undefined;
  let runner: JobRunner | undefined;
  let untrackJobs: (() => void) | undefined;
  let backfill: TextBackfill | undefined;
  return {
    app,
    async start() {
      const topics = topicsOf(deps.namespace);
      // A retried start (runService) keeps what an earlier attempt started.
      relay ??= relayOwnStreams('recognition', deps, {
        prefixes: ['recognition-'],
        topic: topics.recognition,
      });
      untrackJobs ??= trackJobQueue(queue);
      runner ??= startJobRunner({
        queue,
        concurrency: deps.jobConcurrency ?? DEFAULT_JOB_CONCURRENCY,
        run: jobRunner(jobDeps),
        abandon: jobAbandoner(jobDeps),
        log,
      });
      // Files recognised before text was kept get it now, in the background (text-backfill.ts).
      backfill ??= startTextBackfill({
        store,
        files: deps.files,
        internalToken: deps.internalToken,
        pool: lazyPool,
        checkpoints: checkpointStore(deps.db),
        log,
      });
      // Jobs a lost (or new) queue no longer holds are queued again, in the background (job-requeue.ts).
      requeue ??= startJobRequeue({
        store,
        queue,
        fetchPage: pendingRecognitionFromDocument(deps.document, deps.internalToken),
        queued: () => runner?.wake(),
        checkpoints: checkpointStore(deps.db),
        log,
      });
      // Every recognition instance joins one group: they share the documents' work. The handler only
      // queues the jobs, so no bus consumer waits for a file to be recognised.
      consumer ??= await bus.subscribe(
        { groupId: `${deps.namespace}.recognition`, topics: [topics.document] },
        queueJobsHandler({ db: deps.db, queue, queued: () => runner?.wake() }),
      );
      // The correction memory learns from the validators' corrections (memory/corrections-consumer.ts).
      corrections ??= await bus.subscribe(
        { groupId: `${deps.namespace}.recognition-memory`, topics: [topics.document] },
        correctionsHandler({ store, blobs: deps.blobs }),
      );
    },
    async stop() {
      await requeue?.stop();
      await backfill?.stop();
      await consumer?.stop();
      await corrections?.stop();
      await runner?.stop();
      untrackJobs?.();
      await relay?.stop();
      await (await pool)?.terminate();
    },
  };
}
