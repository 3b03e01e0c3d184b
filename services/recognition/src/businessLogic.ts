/**
 * The recognition service's decisions, pure functions: which files of a new document become jobs,
 * what a run's recognition records, what a failed run does to its job, and that a file's result is
 * recorded once. The adapters (jobs.ts: the bus handler and the job's run; job-runner.ts: the runners
 * over the queue) do the I/O around them.
 */
import { DocumentEvents, type EventEnvelope, type RecognitionEvent } from '@docflow/contracts';
import { type BackoffPolicy, backoffDelayMs } from '@docflow/timing';
import type { JobEvent, JobState, RecognitionJob } from './job';
import type { RecognizeFileResult } from './recognize-file';
import type { RecognitionResults } from './results';

/**
 * Whether a document event asks for recognition: a `DocumentCreated` of a `docForm-` stream that
 * carries `recognition` (the document service sets it when the form has recognition forms and files
 * came). Most documents ask for none: their event is not validated whole only to be passed by.
 */
export function wantsRecognition(envelope: EventEnvelope): boolean {
  return (
    envelope.type === 'DocumentCreated' &&
    envelope.streamId.startsWith('docForm-') &&
    envelope.data.recognition !== undefined
  );
}

export interface QueueJobs {
  /** The document event (one that `wantsRecognition`). */
  envelope: EventEnvelope;
  /** The span of the bus consumer, for the jobs to go on in its trace. */
  traceparent?: string;
}

/**
 * One job per file of the document, in order, each with the form and the languages to recognise it
 * with (every content type: one not recognised fails as `unsupported-type` in its run); the results'
 * metadata is the event's, caused by it.
 */
export function decideJobs(command: QueueJobs): RecognitionJob[] {
  const { envelope, traceparent } = command;
  const doc = DocumentEvents.DocumentCreated.parse(envelope.data);
  const { recognition } = doc;
  if (!recognition) return [];
  const metadata: RecognitionJob['metadata'] = { ...envelope.metadata, causationId: envelope.id };
  return doc.files.map((file) => ({
    docId: doc.id,
    author: doc.author,
    recognition,
    file,
    metadata,
    traceparent,
  }));
}

export interface RequeueJobs {
  /** The `DocumentCreated` of a document whose recognition the document service still waits for. */
  envelope: EventEnvelope;
  /** Its files without a result in the document's stream. */
  pending: readonly string[];
}

/**
 * The jobs to queue again for a document whose recognition waits (the job queue was lost): those of
 * its files still pending whose result this service has not recorded either (one recorded but not
 * yet in the document's stream is on its way there).
 */
export function decideRequeue(command: RequeueJobs, state: RecognitionResults): RecognitionJob[] {
  return decideJobs({ envelope: command.envelope }).filter(
    (job) => command.pending.includes(job.file.id) && !state.fileIds.includes(job.file.id),
  );
}

/**
 * What a file's recognition records: its parts (each with a new `_id`), where its page layouts are
 * kept and the form they were read for (the correction memory learns per form), or why it failed.
 */
export function decideRecognized(
  fileId: string,
  result: RecognizeFileResult,
  newId: () => string,
  layouts?: { key: string; pages: number },
  form?: string,
): RecognitionEvent {
  return result.ok
    ? {
        type: 'FileRecognized',
        data: {
          fileId,
          pageCount: result.pageCount,
          parts: result.parts.map((p) => ({ _id: newId(), ...p })),
          text: result.text,
          ...(layouts ? { layouts } : {}),
          ...(form ? { form } : {}),
        },
      }
    : { type: 'FileRecognitionFailed', data: { fileId, reason: result.reason, detail: result.detail } };
}

export interface JobRetryPolicy extends BackoffPolicy {
  /** Runs of a job before it is abandoned. */
  attempts: number;
}

/**
 * A failed run: the job is queued again after the back-off of its failures so far, or given up once
 * it has failed `policy.attempts` times (and kept for the same back-off while its failure cannot be
 * recorded).
 */
export function decideFailedRun(state: JobState, policy: JobRetryPolicy, nowMs: number): JobEvent {
  const attempts = state.attempts + 1;
  const data = { attempts, retryAt: nowMs + backoffDelayMs(attempts, policy) };
  return attempts >= policy.attempts ? { type: 'GivenUp', data } : { type: 'RetryScheduled', data };
}

/** What a job given up records, so that its document does not stay pending: the file is unavailable. */
export function decideGivenUp(job: RecognitionJob, attempts: number): RecognitionEvent {
  return {
    type: 'FileRecognitionFailed',
    data: {
      fileId: job.file.id,
      reason: 'unavailable',
      detail: `the file could not be read for recognition (${attempts} attempts)`,
    },
  };
}

/**
 * Records `result` unless its file has one already (a redelivery, a job run twice after a crash,
 * another instance); a backfilled text only while its file still has none.
 */
export function decideResult(state: RecognitionResults, result: RecognitionEvent): RecognitionEvent[] {
  if (result.type === 'FileTextRecognized')
    return state.textMissing.includes(result.data.fileId) ? [result] : [];
  return state.fileIds.includes(result.data.fileId) ? [] : [result];
}
