/**
 * Runs a command against an event-sourced aggregate: read the stream, fold it with `evolve`,
 * `decide` the new events, append them with the expected revision. A concurrent writer makes the
 * append fail; the command is then decided again on the fresh state, a few times, before 409.
 */
import { randomUUID } from 'node:crypto';
import type { EventMetadata, EventStore } from '@docflow/eventstore';
import { WrongExpectedRevision } from '@docflow/eventstore';

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
}

export interface Loaded<S> {
  state: S;
  /** Number of events in the stream (0 when it does not exist). */
  revision: number;
}

export async function loadAggregate<S, E extends DomainEvent>(
  store: EventStore,
  streamId: string,
  aggregate: Aggregate<S, E>,
  upToRevision?: number,
): Promise<Loaded<S>> {
  const events = await store.readStream(
    streamId,
    upToRevision === undefined ? undefined : { fromRevision: 1, maxCount: upToRevision },
  );
  let state = aggregate.initial;
  for (const recorded of events) {
    const { revision, metadata } = recorded;
    state = aggregate.evolve(state, aggregate.parse(recorded.type, recorded.data), { revision, metadata });
  }
  return { state, revision: events.length };
}

export interface Executed<S, E> extends Loaded<S> {
  events: E[];
  /** The ids the appended events got, in order (consumers dedupe by them). */
  ids: string[];
}

const MAX_ATTEMPTS = 4;

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
      const result = await store.append(
        streamId,
        events.map((e, i) => ({ id: ids[i]!, type: e.type, version: 1, data: e.data, metadata })),
        loaded.revision,
      );
      let state = loaded.state;
      events.forEach((e, i) => {
        state = aggregate.evolve(state, e, { revision: loaded.revision + i + 1, metadata });
      });
      return { state, revision: result.revision, events, ids };
    } catch (err) {
      if (!(err instanceof WrongExpectedRevision) || attempt >= MAX_ATTEMPTS) throw err;
    }
  }
}
