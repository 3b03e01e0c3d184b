/**
 * The event store port with every event appended to the streams of one prefix stamped from the event
 * before it (the document service chains its `docForm-` streams by hash this way). Done at the store,
 * under every command path, so that no caller can append an unstamped event.
 */
import type { EventMetadata, EventStore, NewEvent } from '@docflow/eventstore';
import { withAppend } from './event-store-wrapper';

/** The metadata `event` is stored with, given its revision and the metadata of the event before it. */
export type Stamp = (event: NewEvent, revision: number, previous: EventMetadata | undefined) => EventMetadata;

/** @example const store = stampEventStore(instrumented, 'docForm-', sealDocEvent); */
export function stampEventStore(store: EventStore, streamPrefix: string, stamp: Stamp): EventStore {
  return withAppend(store, async (streamId, events, expected) => {
    if (!streamId.startsWith(streamPrefix)) return store.append(streamId, events, expected);
    // The stamp depends on the event before: only an append at a known revision can be stamped.
    if (expected === 'any') throw new RangeError(`an append to ${streamId} needs an expected revision`);
    let previous =
      expected === 0
        ? undefined
        : (await store.readStream(streamId, { fromRevision: expected, maxCount: 1 })).at(-1)?.metadata;
    const stampedEvents = events.map((event, i) => {
      const metadata = stamp(event, expected + i + 1, previous);
      previous = metadata;
      return { ...event, metadata };
    });
    return store.append(streamId, stampedEvents, expected);
  });
}
