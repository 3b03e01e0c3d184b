/**
 * One recognition job per attachment of a new document whose form recognises something: the file is
 * streamed from the files service, recognised, and the result (or the failure) appended to
 * `recognition-<docId>`. A result already there is not produced again (redelivery, another instance).
 */
import { randomUUID } from 'node:crypto';
import {
  type DocumentEvent,
  DocumentEvents,
  EventEnvelope,
  type RecognitionEvent,
  recognitionStream,
} from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { WrongExpectedRevision } from '@docflow/eventstore';
import { type Logger, newHexId } from '@docflow/kit';
import { callService, problemFromResponse, type ServiceClient } from '@docflow/kit/http';
import type { OcrPool } from './ocr-pool';
import { recognizeFile } from './recognize-file';

export interface JobDeps {
  store: EventStore;
  files: ServiceClient;
  internalToken: string;
  /** The OCR pool, started on first use. */
  pool: () => Promise<OcrPool>;
  log: Logger;
}

type Created = Extract<DocumentEvent, { type: 'DocumentCreated' }>['data'];

async function recordedFiles(store: EventStore, docId: string) {
  const events = await store.readStream(recognitionStream(docId));
  return { revision: events.length, files: new Set(events.map((e) => String(e.data.fileId))) };
}

/** Bus handler for the document topic. */
export function documentCreatedHandler(deps: JobDeps) {
  return async function handleDocumentEvent(message: { value: Record<string, unknown> }): Promise<void> {
    const envelope = EventEnvelope.parse(message.value);
    if (envelope.type !== 'DocumentCreated' || !envelope.streamId.startsWith('docForm-')) return;
    // Most documents ask for no recognition: their event is not validated whole only to be passed by.
    if (envelope.data.recognition === undefined) return;
    const doc = DocumentEvents.DocumentCreated.parse(envelope.data);
    if (!doc.recognition) return;
    for (const file of doc.files) {
      if ((await recordedFiles(deps.store, doc.id)).files.has(file.id)) continue;
      const started = performance.now();
      const result = await recognizeOne(deps, doc, file, envelope.metadata.actor);
      await append(deps.store, doc.id, file.id, result, { ...envelope.metadata, causationId: envelope.id });
      deps.log.info(
        { docId: doc.id, fileId: file.id, result: result.type, ms: Math.round(performance.now() - started) },
        'file recognized',
      );
    }
  };
}

async function recognizeOne(
  deps: JobDeps,
  doc: Created,
  file: Created['files'][number],
  actor: string | undefined,
): Promise<RecognitionEvent> {
  const system = actor ?? doc.author;
  const res = await callService(deps.files, {
    method: 'GET',
    path: `/internal/v1/files/${file.id}`,
    internalToken: deps.internalToken,
    principal: { account: system, subject: system, roles: [] },
    ids: { requestId: randomUUID(), correlationId: doc.id },
  });
  // Not a recognition failure: the file could not be fetched now, so the bus delivers the job again.
  if (!res.ok || !res.body) throw await problemFromResponse(res);
  const { form, idpLangs, idpFrpr } = doc.recognition!;
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
  fileId: string,
  event: RecognitionEvent,
  metadata: Parameters<EventStore['append']>[1][number]['metadata'],
): Promise<void> {
  for (;;) {
    const recorded = await recordedFiles(store, docId);
    if (recorded.files.has(fileId)) return;
    try {
      await store.append(
        recognitionStream(docId),
        [
          {
            id: randomUUID(),
            type: event.type,
            version: 1,
            data: event.data,
            metadata: { ...metadata, timestamp: new Date().toISOString() },
          },
        ],
        recorded.revision,
      );
      return;
    } catch (err) {
      if (!(err instanceof WrongExpectedRevision)) throw err;
    }
  }
}
