/**
 * Keeps the view read model up to date from the document service's own event store: a catch-up
 * subscription from a stored checkpoint, each event applied once, in one transaction with the
 * checkpoint (an event at or before the checkpoint is a repeat and is skipped). Events are applied in
 * batches: up to BATCH_SIZE in a transaction while catching up, and what has arrived as soon as the
 * subscription waits for more. A batch folds each document's events in memory and writes each
 * document it changed once. A batch that fails is applied event by event, so that only the failing
 * event (and those after it) waits for the subscription's retry.
 * `rebuild()` drops everything and replays from the first event.
 */

import { type DocumentEvent, DocumentEvents, upcast } from '@docflow/contracts';
import type { EventStore, RecordedEvent, Subscription } from '@docflow/eventstore';
import type { Logger } from '@docflow/kit';
import { checkpointReached, checkpointStore, type LocalDb } from '@docflow/kit/eventsourcing';
import { measuredGauge, trackBacklog } from '@docflow/kit/http';
import { type DocState, docAggregate, initialDoc } from '../documents/docForm';
import type { ViewsReadModel } from './read-model';
import {
  createSecondaryIndexes,
  dropSecondaryIndexes,
  optimizeSearchIndex,
  VIEWS_PROJECTION,
} from './schema';

const NAME = VIEWS_PROJECTION;
const PREFIX = 'docForm-';
/** The streams the views are projected from. */
export const VIEWS_STREAM_PREFIXES = [PREFIX];
const PREFIXES = VIEWS_STREAM_PREFIXES;
/** Events per transaction at most: while serving, and in an offline rebuild (nothing waits for it). */
const BATCH_SIZE = 2_000;
export const OFFLINE_BATCH_SIZE = 20_000;
const FLUSH_RETRY_MS = 1_000;

const behind = measuredGauge(
  'docflow_views_behind_events',
  'Document events stored but not yet applied to the views read model (measured on scrape)',
  ['service'],
);

export interface ViewsProjection {
  start(): void;
  stop(): Promise<void>;
  /** Resolves once every event stored so far is in the read model, or false after `timeoutMs`. */
  caughtUp(timeoutMs: number): Promise<boolean>;
  /** Drops the read model and replays every event; resolves when it has caught up. */
  rebuild(onProgress?: (applied: number) => void, options?: RebuildOptions): Promise<void>;
}

export interface RebuildOptions {
  /**
   * Nothing lists while it runs (the offline command): the indexes only listings read are dropped and
   * built once at the end (`onIndex` is told each), and events are applied in larger batches.
   */
  offline?: { onIndex?: (name: string) => void };
}

/**
 * A stored document event as the fold takes it. Every event of a `docForm-` stream was written by
 * this service: its own decisions, typed by its decide functions, and the facts its consumers checked
 * and recorded (the workflow facts inside WorkflowChanged are parsed by the fold itself). The store
 * hands back the JSON it was given, and parsing each with zod again took about as much of a rebuild's
 * time as the fold itself (profile of `views:rebuild`), so only the type is checked.
 */
function storedEvent({ type, data }: RecordedEvent): DocumentEvent {
  if (!Object.hasOwn(DocumentEvents, type)) throw new Error(`unknown document event type ${type}`);
  return { type, data } as DocumentEvent;
}

export function createViewsProjection(
  store: EventStore,
  db: LocalDb,
  views: ViewsReadModel,
  log: Logger,
): ViewsProjection {
  const checkpoints = checkpointStore(db);
  let subscription: Subscription | undefined;
  let untrackBehind: (() => void) | undefined;
  let applied = 0;
  let progress: ((applied: number) => void) | undefined;
  /** Delivered, not yet applied: the checkpoint is before them, so a crash replays them. */
  let pending: RecordedEvent[] = [];
  let flushTimer: NodeJS.Immediate | NodeJS.Timeout | undefined;
  let batchSize = BATCH_SIZE;

  const resetTx = db.transaction(() => {
    views.clear();
    db.prepare('DELETE FROM checkpoints WHERE name = ?').run(NAME);
    db.prepare('DELETE FROM handled_messages WHERE consumer = ?').run(NAME);
  });

  const applyTx = db.transaction((events: readonly RecordedEvent[]) => {
    const after = checkpoints.load(NAME) ?? '';
    const folded = new Map<string, DocState>();
    /** What the views stored of each document before the batch: the writer replaces its rows. */
    const stored = new Map<string, DocState | undefined>();
    for (const recorded of events) {
      if (recorded.position <= after) continue;
      const id = recorded.streamId.slice(PREFIX.length);
      let current = folded.get(id);
      if (!current) {
        const before = views.get(id);
        stored.set(id, before);
        current = before ?? initialDoc;
      }
      folded.set(id, docAggregate.evolve(current, storedEvent(upcast(recorded)), recorded));
    }
    views.putAll(folded.values(), stored);
    // A batch of repeats only leaves the checkpoint where it is.
    const last = events[events.length - 1]!.position;
    if (last > after) checkpoints.save(NAME, last);
  });

  function tally(n: number) {
    applied += n;
    progress?.(applied);
  }

  /** Applies the pending events; throws at the first event that fails, which stays pending. */
  function flush() {
    if (pending.length === 0) return;
    try {
      applyTx(pending);
      tally(pending.length);
      pending = [];
    } catch {
      while (pending.length > 0) {
        applyTx(pending.slice(0, 1));
        pending.shift();
        tally(1);
      }
    }
  }

  function cancelFlush() {
    if (flushTimer) {
      clearImmediate(flushTimer as NodeJS.Immediate);
      clearTimeout(flushTimer as NodeJS.Timeout);
    }
    flushTimer = undefined;
  }

  /** Flushes once the subscription lets go of the event loop (it has nothing more in hand). */
  function scheduleFlush(delayMs = 0) {
    if (flushTimer) return;
    const run = () => {
      flushTimer = undefined;
      try {
        flush();
      } catch (error) {
        log.warn({ err: error, pending: pending.length }, 'views: applying events failed, retrying');
        scheduleFlush(FLUSH_RETRY_MS);
      }
    };
    flushTimer = delayMs > 0 ? setTimeout(run, delayMs) : setImmediate(run);
  }

  function start() {
    if (subscription) return;
    untrackBehind = trackBacklog(behind, 'document', {
      store,
      checkpoints,
      name: NAME,
      streamPrefixes: PREFIXES,
    });
    subscription = store.subscribeAll(
      { after: checkpoints.load(NAME), streamPrefixes: PREFIXES },
      async (recorded) => {
        // A retried event (the handler threw for it) is still pending.
        if (pending[pending.length - 1]?.id !== recorded.id) pending.push(recorded);
        if (pending.length < batchSize) {
          scheduleFlush();
          return;
        }
        cancelFlush();
        flush(); // throws: the subscription retries this event
        // Catching up: let requests in between batches.
        await new Promise((resolve) => setImmediate(resolve));
      },
    );
  }

  function caughtUp(timeoutMs: number): Promise<boolean> {
    return checkpointReached(store, checkpoints, NAME, PREFIXES, timeoutMs);
  }

  async function stop() {
    untrackBehind?.();
    await subscription?.stop();
    subscription = undefined;
    cancelFlush();
    try {
      flush();
    } catch (error) {
      log.warn({ err: error, pending: pending.length }, 'views: events left to replay at the next start');
      pending = [];
    }
  }

  return {
    start,
    stop,
    caughtUp,
    async rebuild(onProgress, options = {}) {
      await stop();
      resetTx();
      if (options.offline) {
        dropSecondaryIndexes(db);
        batchSize = OFFLINE_BATCH_SIZE;
      }
      applied = 0;
      progress = onProgress;
      log.info('views: dropped, replaying every document event');
      start();
      await caughtUp(Number.POSITIVE_INFINITY);
      progress = undefined;
      if (options.offline) {
        await stop();
        batchSize = BATCH_SIZE;
        createSecondaryIndexes(db, options.offline.onIndex);
        optimizeSearchIndex(db);
      }
      log.info({ applied }, 'views: rebuilt');
    },
  };
}
