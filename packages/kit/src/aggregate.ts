/**
 * Runs a command against an event-sourced aggregate: read the stream, fold it with `evolve`,
 * `decide` the new events, append them with the expected revision. A concurrent writer makes the
 * append fail; the command is then decided again on the fresh state, a few times, before 409.
 */
import { randomUUID } from 'node:crypto';
import type { AppendResult, EventMetadata, EventStore, NewEvent } from '@docflow/eventstore';
import { StoreUnavailable, WrongExpectedRevision } from '@docflow/eventstore';
import { Counter } from 'prom-client';
import { storeOwner } from './event-store-metrics';
import { metricsRegistry } from './metrics';

const foldCacheLookups = new Counter({
  name: 'docflow_fold_cache_lookups_total',
  help: 'Aggregate loads by whether a folded state was cached (hit: only newer events are read), by service',
  labelNames: ['service', 'result'],
  registers: [metricsRegistry],
});

export interface DomainEvent {
  type: string;
  data: Record<string, unknown>;
}

/** What `evolve` may know of an event besides its data. */
export interface EventContext {
  /** Revision of the stream after this event (1-based). */
  revision: number;
  metadata: EventMetadata;
}

export interface Aggregate<S, E extends DomainEvent> {
  initial: S;
  evolve(state: S, event: E, context: EventContext): S;
  /** Validates a stored event back into the domain type. */
  parse(type: string, data: unknown): E;
  /**
   * The metadata a new event is appended with, given the state before it and its revision (e.g. to
   * chain a hash to the previous event's); the command's metadata when absent. It
   * sees the event as decided: an aggregate that also has `encode` must seal what `encode` writes (no
   * aggregate has both today).
   */
  seal?(state: S, event: E, context: EventContext): EventMetadata;
  /** How a decided event is written (e.g. with personal data encrypted); without it, as it is. */
  encode?(event: E, streamId: string): DomainEvent;
}

export interface Loaded<S> {
  state: S;
  /** Number of events in the stream (0 when it does not exist). */
  revision: number;
}

/**
 * Folded states of recently read streams, per store and aggregate, so that a read folds (and
 * validates) only the events appended since: a repeated read of an unchanged stream is one query
 * for newer events. The stream stays the truth (any process may append); cached states are frozen,
 * so a caller that changed one would fail loudly instead of corrupting the next read.
 */
const foldCaches = new WeakMap<EventStore, WeakMap<object, Map<string, Loaded<unknown>>>>();
const FOLD_CACHE_ENTRIES = 5_000;

function foldCache<S>(store: EventStore, aggregate: object): Map<string, Loaded<S>> {
  let byAggregate = foldCaches.get(store);
  if (!byAggregate) {
    byAggregate = new WeakMap();
    foldCaches.set(store, byAggregate);
  }
  let cache = byAggregate.get(aggregate);
  if (!cache) {
    cache = new Map();
    byAggregate.set(aggregate, cache);
  }
  return cache as Map<string, Loaded<S>>;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

export async function loadAggregate<S, E extends DomainEvent>(
  store: EventStore,
  streamId: string,
  aggregate: Aggregate<S, E>,
  upToRevision?: number,
): Promise<Loaded<S>> {
  const cache = foldCache<S>(store, aggregate);
  const cached = cache.get(streamId);
  // A read up to a revision older than the cached one folds from the start.
  const from = cached && (upToRevision === undefined || cached.revision <= upToRevision) ? cached : undefined;
  foldCacheLookups.inc({ service: storeOwner(store) ?? 'unknown', result: from ? 'hit' : 'miss' });
  const after = from?.revision ?? 0;
  const events = await store.readStream(streamId, {
    fromRevision: after + 1,
    ...(upToRevision === undefined ? {} : { maxCount: Math.max(0, upToRevision - after) }),
  });
  let state = from ? from.state : aggregate.initial;
  for (const recorded of events) {
    const { revision, metadata } = recorded;
    state = aggregate.evolve(state, aggregate.parse(recorded.type, recorded.data), { revision, metadata });
  }
  // The store numbers the events (a truncated stream does not start at 1): never count them.
  const loaded = { state, revision: events.at(-1)?.revision ?? after };
  if (upToRevision === undefined && loaded.revision > 0) remember(cache, streamId, loaded);
  return loaded;
}

/** Keeps the newest fold of a stream (a slower concurrent read never replaces a newer one), LRU-bounded. */
function remember<S>(cache: Map<string, Loaded<S>>, streamId: string, loaded: Loaded<S>): void {
  const current = cache.get(streamId);
  if (current && current.revision > loaded.revision) return;
  cache.delete(streamId);
  cache.set(streamId, { state: deepFreeze(loaded.state), revision: loaded.revision });
  if (cache.size > FOLD_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
}

export interface Executed<S, E> extends Loaded<S> {
  events: E[];
  /** The ids the appended events got, in order (consumers dedupe by them). */
  ids: string[];
}

const MAX_ATTEMPTS = 4;

/**
 * An append whose outcome is unknown (StoreUnavailable: the engine did not answer in time) is sent
 * once more, the very same events with the same ids and expected revision: if the first one was
 * written the store answers its result and writes nothing (see `EventStore.append`).
 */
async function appendOnce(
  store: EventStore,
  streamId: string,
  events: NewEvent[],
  expected: number,
): Promise<AppendResult> {
  try {
    return await store.append(streamId, events, expected);
  } catch (err) {
    if (!(err instanceof StoreUnavailable)) throw err;
    return store.append(streamId, events, expected);
  }
}

export async function executeCommand<S, E extends DomainEvent>(
  store: EventStore,
  streamId: string,
  aggregate: Aggregate<S, E>,
  decide: (state: S, revision: number) => E[],
  metadata: EventMetadata,
): Promise<Executed<S, E>> {
  for (let attempt = 1; ; attempt++) {
    const loaded = await loadAggregate(store, streamId, aggregate);
    const events = decide(loaded.state, loaded.revision);
    if (events.length === 0) return { ...loaded, events, ids: [] };
    try {
      const ids = events.map(() => randomUUID());
      // Folded before the append, so that `seal` sees the state before each event.
      let state = loaded.state;
      const sealed = events.map((e, i) => {
        const context = { revision: loaded.revision + i + 1, metadata };
        const stamped = aggregate.seal ? aggregate.seal(state, e, context) : metadata;
        state = aggregate.evolve(state, e, { ...context, metadata: stamped });
        const stored = aggregate.encode ? aggregate.encode(e, streamId) : e;
        return { id: ids[i]!, type: stored.type, version: 1, data: stored.data, metadata: stamped };
      });
      const result = await appendOnce(store, streamId, sealed, loaded.revision);
      return { state, revision: result.revision, events, ids };
    } catch (err) {
      if (!(err instanceof WrongExpectedRevision) || attempt >= MAX_ATTEMPTS) throw err;
    }
  }
}
