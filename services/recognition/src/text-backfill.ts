/**
 * Text backfill (issue 31): files recognised before recognition kept their text (73fbdae) left their
 * documents without searchable text, and no store holds it. At start, in the background, the service
 * reads its own `recognition-` streams once from a checkpoint; for each FileRecognized without text it
 * reads the stored file again (text layer, else OCR: readFileText) and appends FileTextRecognized,
 * which the document service records as RecognitionTextRecorded (recoText, searched by the views).
 * One file at a time; the checkpoint moves after each event, so a stop resumes where it was; a file
 * that cannot be read any more is logged and passed; a failure to reach the files service or the store
 * ends the pass, to go on from the same event at the next start.
 */
import { randomUUID } from 'node:crypto';
import {
  parseRecognitionEvent,
  type RecognitionEvent,
  readFileRoute,
  recognitionStream,
  upcast,
} from '@docflow/contracts';
import type { EventStore, RecordedEvent, Subscription } from '@docflow/eventstore';
import type { Logger } from '@docflow/kit';
import { type CheckpointStore, executeCommand, loadAggregate } from '@docflow/kit/eventsourcing';
import { internalClient, ProblemError, type ServiceClient } from '@docflow/kit/http';
import { decideResult } from './businessLogic';
import type { OcrPool } from './ocr-pool';
import { readFileText } from './recognize-file';
import { resultsAggregate } from './results';

const CHECKPOINT = 'recognition.text-backfill';
const PREFIXES = ['recognition-'];

export interface TextBackfillDeps {
  store: EventStore;
  files: ServiceClient;
  internalToken: string;
  pool: () => Promise<OcrPool>;
  checkpoints: CheckpointStore;
  log: Logger;
}

/** How a pass ended: every event up to the head read, or interrupted (a stop, an engine away). */
export interface TextBackfillSummary {
  complete: boolean;
  /** FileTextRecognized appended. */
  recorded: number;
  /** Files without text whose stored file could not be read (missing, unreadable). */
  passed: number;
}

export interface TextBackfill {
  /** Resolves when the pass ends. */
  done: Promise<TextBackfillSummary>;
  stop(): Promise<void>;
}

/** The file of a FileRecognized without text, or undefined. */
function textless(event: RecordedEvent): { docId: string; fileId: string } | undefined {
  if (event.type !== 'FileRecognized') return undefined;
  const result = parseRecognitionEvent(event.type, upcast(event).data);
  if (result.type !== 'FileRecognized' || result.data.text !== undefined) return undefined;
  return { docId: event.streamId.slice('recognition-'.length), fileId: result.data.fileId };
}

export function startTextBackfill(deps: TextBackfillDeps): TextBackfill {
  const { store, checkpoints, log } = deps;
  const summary: TextBackfillSummary = { complete: false, recorded: 0, passed: 0 };
  let subscription: Subscription | undefined;
  let settle: (value: TextBackfillSummary) => void = () => {};
  const done = new Promise<TextBackfillSummary>((resolve) => {
    settle = resolve;
  });
  let ended = false;
  const end = (complete: boolean) => {
    if (ended) return;
    ended = true;
    summary.complete = complete;
    log.info({ ...summary }, complete ? 'text backfill: done' : 'text backfill: interrupted');
    settle(summary);
    // Not awaited here: the handler that ends the pass runs inside the subscription.
    void subscription?.stop();
  };

  /** Reads one file's text again and records it, unless it has its text or cannot be read any more. */
  async function backfill(
    docId: string,
    fileId: string,
    event: RecordedEvent,
  ): Promise<'recorded' | 'passed' | 'present'> {
    const { state } = await loadAggregate(store, recognitionStream(docId), resultsAggregate);
    if (!state.textMissing.includes(fileId)) return 'present';
    const system = event.metadata.actor ?? 'recognition';
    let body: ReadableStream<Uint8Array> | null;
    try {
      const res = await internalClient(deps.files, deps.internalToken).call(
        readFileRoute,
        { params: { fileId } },
        {
          principal: { account: system, subject: system, roles: [] },
          ids: { requestId: randomUUID(), correlationId: event.metadata.correlationId },
        },
      );
      body = res.body;
    } catch (err) {
      // The file is gone: nothing to read, ever. Anything else is the files service away: retried later.
      if (err instanceof ProblemError && err.status === 404) return 'passed';
      throw err;
    }
    if (!body) return 'passed';
    const read = await readFileText(
      { data: body as unknown as AsyncIterable<Uint8Array> },
      await deps.pool(),
    );
    if (!read.ok) {
      log.warn({ docId, fileId, reason: read.reason }, 'text backfill: the file cannot be read again');
      return 'passed';
    }
    const result: RecognitionEvent = { type: 'FileTextRecognized', data: { fileId, text: read.text } };
    await executeCommand(store, recognitionStream(docId), resultsAggregate, (s) => decideResult(s, result), {
      ...event.metadata,
      causationId: event.id,
      timestamp: new Date().toISOString(),
    });
    return 'recorded';
  }

  void (async () => {
    const after = checkpoints.load(CHECKPOINT);
    const head = await store.headPosition({ streamPrefixes: PREFIXES });
    if (head === undefined || (after !== undefined && after >= head)) return end(true);
    log.info({ after: after ?? 'start', head }, 'text backfill: reading recognition results');
    subscription = store.subscribeAll({ after, streamPrefixes: PREFIXES }, async (event) => {
      if (ended) return;
      const file = textless(event);
      if (file) {
        try {
          const outcome = await backfill(file.docId, file.fileId, event);
          if (outcome !== 'present') summary[outcome]++;
        } catch (err) {
          log.warn({ err, ...file }, 'text backfill: stopped, goes on at the next start');
          return end(false);
        }
      }
      checkpoints.save(CHECKPOINT, event.position);
      if (event.position >= head) end(true);
    });
  })().catch((err: unknown) => {
    log.warn({ err }, 'text backfill: could not start, goes on at the next start');
    end(false);
  });

  return {
    done,
    async stop() {
      end(false);
      await subscription?.stop();
    },
  };
}
