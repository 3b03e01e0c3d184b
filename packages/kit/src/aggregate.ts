/**
 * The one command path to the event store: every append of the services goes through here. A command
 * reads the stream, folds it with `evolve`, `decide`s the new events and appends them with the expected
 * revision. Its failures are retried by kind: a conflict (a concurrent writer) is decided again on the
 * fresh state a few times; an append whose answer was lost is sent again, the same events with the same
 * ids (the store writes them once), after a short back-off; anything else is not retried.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout } from 'node:timers/promises';
import { currentVersion, upcast } from '@docflow/contracts';
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

/** `Parsed`: `Promise<E>` for an aggregate whose events open with a key read from a store. */
export interface Aggregate<S, E extends DomainEvent, Parsed extends E | Promise<E> = E> {
  initial: S;
  evolve(state: S, event: E, context: EventContext): S;
  /** Validates a stored event back into the domain type. */
  parse(type: string, data: unknown): Parsed;
  /** How a decided event is written (e.g. with personal data encrypted); without it, as it is. */
  encode?(event: E, streamId: string): DomainEvent | Promise<DomainEvent>;
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
  aggregate: Aggregate<S, E, E | Promise<E>>,
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
    const { type, data } = upcast(recorded);
    state = aggregate.evolve(state, await aggregate.parse(type, data), { revision, metadata });
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

/** Decisions of a command by default: the first and up to three more after conflicts. */
const MAX_ATTEMPTS = 4;
/** Waits before each resend of an append whose answer was lost. */
const UNAVAILABLE_BACKOFF_MS = [50, 250];

export interface CommandOptions {
  /**
   * How many times the command is decided at most, the first included (default 4): 1 when a
   * conflict is itself the answer (the caller maps WrongExpectedRevision), more when concurrent
   * writers are expected to move the stream on once per event of theirs.
   */
  maxAttempts?: number;
}

/**
 * An append whose outcome is unknown (StoreUnavailable: the engine did not answer in time) is sent
 * again after a back-off, the very same events with the same ids and expected revision: if an earlier
 * one was written the store answers its result and writes nothing (see `EventStore.append`).
 */
async function appendOnce(
  store: EventStore,
  streamId: string,
  events: NewEvent[],
  expected: number | 'any',
): Promise<AppendResult> {
  for (let resend = 0; ; resend++) {
    try {
      return await store.append(streamId, events, expected);
    } catch (err) {
      const backoff = UNAVAILABLE_BACKOFF_MS[resend];
      if (!(err instanceof StoreUnavailable) || backoff === undefined) throw err;
      await setTimeout(backoff);
    }
  }
}

/**
 * Appends events that depend on nothing the stream holds (e.g. an audit checkpoint): no read, no
 * expected revision, so no conflict; a lost answer is handled as for a command.
 */
export async function recordEvents(
  store: EventStore,
  streamId: string,
  events: DomainEvent[],
  metadata: EventMetadata,
): Promise<AppendResult> {
  const stored = events.map((e) => ({
    id: randomUUID(),
    type: e.type,
    version: currentVersion(e.type),
    data: e.data,
    metadata,
  }));
  return appendOnce(store, streamId, stored, 'any');
}

export async function executeCommand<S, E extends DomainEvent>(
  store: EventStore,
  streamId: string,
  aggregate: Aggregate<S, E, E | Promise<E>>,
  decide: (state: S, revision: number) => E[] | Promise<E[]>,
  metadata: EventMetadata,
  options: CommandOptions = {},
): Promise<Executed<S, E>> {
  const maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
  for (let attempt = 1; ; attempt++) {
    const loaded = await loadAggregate(store, streamId, aggregate);
    const events = await decide(loaded.state, loaded.revision);
    if (events.length === 0) return { ...loaded, events, ids: [] };
    try {
      const ids = events.map(() => randomUUID());
      const stored = await Promise.all(
        events.map(async (e, i) => {
          const encoded = aggregate.encode ? await aggregate.encode(e, streamId) : e;
          const version = currentVersion(encoded.type);
          return { id: ids[i]!, type: encoded.type, version, data: encoded.data, metadata };
        }),
      );
      const result = await appendOnce(store, streamId, stored, loaded.revision);
      const state = events.reduce(
        (s, e, i) => aggregate.evolve(s, e, { revision: loaded.revision + i + 1, metadata }),
        loaded.state,
      );
      return { state, revision: result.revision, events, ids };
    } catch (err) {
      if (!(err instanceof WrongExpectedRevision) || attempt >= maxAttempts) throw err;
    }
  }
}
