/**
 * One recognition job: what a queued job carries (the part of `DocumentCreated` that recognising one
 * of its files needs) and what a failed run does to it. Nothing here does I/O; the job queue
 * (job-queue.ts, a table of the local database) stores the jobs and their runs, businessLogic.ts
 * decides.
 */
import { DocumentEvents, EventMetadataSchema, StoredFile } from '@docflow/contracts';
import { z } from 'zod';

export const RecognitionJob = z.object({
  docId: z.string(),
  author: z.string(),
  recognition: DocumentEvents.DocumentCreated.shape.recognition.unwrap(),
  file: StoredFile,
  /** The metadata of the results: the event's, caused by it. */
  metadata: EventMetadataSchema,
  /** The span of the bus consumer that queued the job: the job goes on in its trace. */
  traceparent: z.string().optional(),
});
export type RecognitionJob = z.infer<typeof RecognitionJob>;

/** A queued job's state, as its queue row keeps it: the runs of it that failed (the first run: 0). */
export interface JobState {
  attempts: number;
}

/** What a failed run does to its job (a run that ends well finishes the job: it leaves the queue). */
export type JobEvent =
  /** Queued again, to be taken from `retryAt` on (ms since the epoch). */
  | { type: 'RetryScheduled'; data: { attempts: number; retryAt: number } }
  /**
   * Failed too often: the job is dropped once its failure is recorded; while that cannot be recorded
   * it is kept, and taken again from `retryAt` on.
   */
  | { type: 'GivenUp'; data: { attempts: number; retryAt: number } };
