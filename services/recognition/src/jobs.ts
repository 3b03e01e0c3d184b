/**
 * One recognition job per attachment of a new document whose form recognises something. The bus
 * handler only queues the jobs (durably, in the service's own queue) and acknowledges; a job runner
 * streams the file from the files service, recognises it (a supplier's remembered places first:
 * memory/remembered-values.ts), and appends the result (or the failure) to
 * `recognition-<docId>`. A result already there is not produced again (redelivery, a job run twice
 * after a crash, another instance). What becomes a job and what a result records is decided in
 * businessLogic.ts.
 */
import { randomUUID } from 'node:crypto';
import type { BlobStore } from '@docflow/blobstore';
import { EventEnvelope, type RecognitionEvent, readFileRoute, recognitionStream } from '@docflow/contracts';
import type { EventMetadata, EventStore } from '@docflow/eventstore';
import {
  contextFromTraceparent,
  inSpan,
  type Logger,
  newHexId,
  SERVICE_ATTRIBUTE,
  TRACEPARENT_HEADER,
  traceHeaders,
} from '@docflow/kit';
import { applyOnceDurably, executeCommand, type LocalDb, loadAggregate } from '@docflow/kit/eventsourcing';
import { internalClient, type ServiceClient } from '@docflow/kit/http';
import { decideGivenUp, decideJobs, decideRecognized, decideResult, wantsRecognition } from './businessLogic';
import { RecognitionJob } from './job';
import type { JobQueue } from './job-queue';
import { keepLayouts } from './layout-store';
import { withRememberedValues } from './memory/remembered-values';
import type { OcrPool } from './ocr-pool';
import { recognizeFile } from './recognize-file';
import { type RecognitionResults, resultsAggregate } from './results';

export interface JobDeps {
  store: EventStore;
  files: ServiceClient;
  /** Where the files' page layouts are kept. */
  blobs: BlobStore;
  internalToken: string;
  /** The OCR pool, started on first use. */
  pool: () => Promise<OcrPool>;
  log: Logger;
}

const QUEUE_CONSUMER = 'recognition.jobs';

async function recorded(store: EventStore, docId: string, fileId: string): Promise<boolean> {
  const { state } = await loadAggregate(store, recognitionStream(docId), resultsAggregate);
  return state.fileIds.includes(fileId);
}

/** The queue's rows of `jobs`, in order. */
export const queueRows = (jobs: readonly RecognitionJob[]) =>
  jobs.map((job) => ({ docId: job.docId, fileId: job.file.id, job: JSON.stringify(job) }));

/**
 * Bus handler for the document topic: queues a job per file of a document to recognise and returns
 * once the queue holds them durably, so the bus may forget the message however long the jobs take.
 */
export function queueJobsHandler(deps: { db: LocalDb; queue: JobQueue; queued: () => void }) {
  return async function handleDocumentEvent(message: { value: Record<string, unknown> }): Promise<void> {
    const envelope = EventEnvelope.parse(message.value);
    if (!wantsRecognition(envelope)) return;
    const jobs = decideJobs({ envelope, traceparent: traceHeaders()[TRACEPARENT_HEADER] });
    await applyOnceDurably(deps.db, QUEUE_CONSUMER, envelope.id, () => deps.queue.enqueue(queueRows(jobs)));
    deps.queued();
  };
}

/** Runs one queued job; throws when it should be tried again later (the file could not be fetched). */
export function jobRunner(deps: JobDeps) {
  return async function runJob(queued: string, stopping: AbortSignal): Promise<void> {
    const job = RecognitionJob.parse(JSON.parse(queued));
    const span = {
      parent: contextFromTraceparent(job.traceparent),
      attributes: { [SERVICE_ATTRIBUTE]: 'recognition' },
    };
    await inSpan('recognition.job', span, async () => {
      if (await recorded(deps.store, job.docId, job.file.id)) return;
      const started = performance.now();
      const result = await recognizeOne(deps, job);
      // A stop ends the OCR pool under the job: its failure would be the stop's, not the file's.
      stopping.throwIfAborted();
      await append(deps.store, job.docId, result, job.metadata);
      deps.log.info(
        {
          docId: job.docId,
          fileId: job.file.id,
          result: result.type,
          ms: Math.round(performance.now() - started),
        },
        'file recognized',
      );
    });
  };
}

/** Records that a job kept failing (the file could not be read), so its document does not stay pending. */
export function jobAbandoner(deps: JobDeps) {
  return async function abandonJob(queued: string, attempts: number): Promise<void> {
    const job = RecognitionJob.parse(JSON.parse(queued));
    await append(deps.store, job.docId, decideGivenUp(job, attempts), job.metadata);
  };
}

async function recognizeOne(deps: JobDeps, job: RecognitionJob): Promise<RecognitionEvent> {
  const { file } = job;
  const system = job.metadata.actor ?? job.author;
  // Not a recognition failure when this throws: the file could not be fetched now, so the job is run
  // again later.
  const res = await internalClient(deps.files, deps.internalToken).call(
    readFileRoute,
    { params: { fileId: file.id } },
    {
      principal: { account: system, subject: system, roles: [] },
      ids: { requestId: randomUUID(), correlationId: job.docId },
    },
  );
  if (!res.body) throw new Error(`the files service sent no content for file ${file.id}`);
  const { form, idpLangs, idpFrpr } = job.recognition;
  const read = await recognizeFile(
    {
      data: res.body as unknown as AsyncIterable<Uint8Array>,
      contentType: file.contentType,
      fileName: file.fileName,
    },
    form,
    await deps.pool(),
    { idpLangs, idpFrpr },
  );
  // A supplier's values a validator corrected before are read where they stood (memory/).
  const result = read.ok ? await withRememberedValues(deps.store, form, read) : read;
  // Kept before the result is recorded, so a recorded key always finds its layouts.
  const layouts = result.ok ? await keepLayouts(deps.blobs, result.layouts) : undefined;
  return decideRecognized(file.id, result, newHexId, layouts, job.recognition.form.name);
}

async function append(
  store: EventStore,
  docId: string,
  result: RecognitionEvent,
  metadata: EventMetadata,
): Promise<void> {
  const decide = (state: RecognitionResults) => decideResult(state, result);
  await executeCommand(store, recognitionStream(docId), resultsAggregate, decide, {
    ...metadata,
    timestamp: new Date().toISOString(),
  });
}
