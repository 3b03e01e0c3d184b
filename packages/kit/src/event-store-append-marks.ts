/**
 * The event store port with every event appended to the streams of one prefix marked with its place
 * in the append that wrote it (`metadata.append`, see AppendPlace), so that the relay can publish
 * each append whole: the facts one command decided then reach their consumer as one message.
 */
import type { AppendPlace } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { withAppend } from './event-store-wrapper';

/** @example const store = markAppends(deps.store, 'workflow-'); */
export function markAppends(store: EventStore, streamPrefix: string): EventStore {
  return withAppend(store, (streamId, events, expected) => {
    if (!streamId.startsWith(streamPrefix)) return store.append(streamId, events, expected);
    const marked = events.map((event, index) => {
      const append: AppendPlace = { index, count: events.length };
      return { ...event, metadata: { ...event.metadata, append } };
    });
    return store.append(streamId, marked, expected);
  });
}
