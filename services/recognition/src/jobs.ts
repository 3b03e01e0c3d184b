/**
 * One recognition job per attachment of a new document whose form recognises something. The bus
 * handler only queues the jobs (durably, in the service's own queue) and acknowledges; a job runner
 * streams the file from the files service, recognises it, and appends the result (or the failure) to
 * `recognition-<docId>`. A result already there is not produced again (redelivery, a job run twice
 * after a crash, another instance).
 */
import { randomUUID } from 'node:crypto';
import {
  DocumentEvents,
  EventEnvelope,
  EventMetadataSchema,
  type RecognitionEvent,
  readFileRoute,
  recognitionStream,
  StoredFile,
} from '@docflow/contracts';
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
import { z } from 'zod';
import type { JobQueue } from './job-queue';
import type { OcrPool } from './ocr-pool';
import { recognizeFile } from './recognize-file';
import { decideResult, type RecognitionResults, resultsAggregate } from './results';

export interface JobDeps {
  store: EventStore;
  files: ServiceClient;
  internalToken: string;
  /** The OCR pool, started on first use. */
  pool: () => Promise<OcrPool>;
  log: Logger;
}

/** What a queued job carries: the part of `DocumentCreated` that recognising one of its files needs. */
const RecognitionJob = z.object({
  docId: z.string(),
  author: z.string(),
  recognition: DocumentEvents.DocumentCreated.shape.recognition.unwrap(),
  file: StoredFile,
  /** The metadata of the results: the event's, caused by it. */
  metadata: EventMetadataSchema,
  /** The span of the bus consumer that queued the job: the job goes on in its trace. */
  traceparent: z.string().optional(),
});
type RecognitionJob = z.infer<typeof RecognitionJob>;

const QUEUE_CONSUMER = 'recognition.jobs';

async function recorded(store: EventStore, docId: string, fileId: string): Promise<boolean> {
  const { state } = await loadAggregate(store, recognitionStream(docId), resultsAggregate);
  return state.fileIds.includes(fileId);
}

/**
 * Bus handler for the document topic: queues a job per file of a document to recognise and returns
 * once the queue holds them durably, so the bus may forget the message however long the jobs take.
 */
export function queueJobsHandler(deps: { db: LocalDb; queue: JobQueue; queued: () => void }) {
  return async function handleDocumentEvent(message: { value: Record<string, unknown> }): Promise<void> {
    const envelope = EventEnvelope.parse(message.value);
    if (envelope.type !== 'DocumentCreated' || !envelope.streamId.startsWith('docForm-')) return;
    // Most documents ask for no recognition: their event is not validated whole only to be passed by.
    if (envelope.data.recognition === undefined) return;
    const doc = DocumentEvents.DocumentCreated.parse(envelope.data);
    const { recognition } = doc;
    if (!recognition) return;
    const metadata = { ...envelope.metadata, causationId: envelope.id };
    const traceparent = traceHeaders()[TRACEPARENT_HEADER];
    const jobs = doc.files.map((file) => {
      const job: RecognitionJob = {
        docId: doc.id,
        author: doc.author,
        recognition,
        file,
        metadata,
        traceparent,
      };
      return { docId: doc.id, fileId: file.id, job: JSON.stringify(job) };
    });
    await applyOnceDurably(deps.db, QUEUE_CONSUMER, envelope.id, () => deps.queue.enqueue(jobs));
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
    const failed: RecognitionEvent = {
      type: 'FileRecognitionFailed',
      data: {
        fileId: job.file.id,
        reason: 'unavailable',
        detail: `the file could not be read for recognition (${attempts} attempts)`,
      },
    };
    await append(deps.store, job.docId, failed, job.metadata);
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
  const result = await recognizeFile(
    {
      data: res.body as unknown as AsyncIterable<Uint8Array>,
      contentType: file.contentType,
      fileName: file.fileName,
    },
    form,
    await deps.pool(),
    { idpLangs, idpFrpr },
  );
  return result.ok
    ? {
        type: 'FileRecognized',
        data: {
          fileId: file.id,
          pageCount: result.pageCount,
          parts: result.parts.map((p) => ({ _id: newHexId(), ...p })),
          text: result.text,
        },
      }
    : {
        type: 'FileRecognitionFailed',
        data: { fileId: file.id, reason: result.reason, detail: result.detail },
      };
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
