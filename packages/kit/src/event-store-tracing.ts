/**
 * The event store port with a span around each append. Every appended event's metadata gets the
 * append span's `traceparent`: the relay publishes the event later, from the store, and continues
 * that trace on the bus.
 */
import type { EventStore } from '@docflow/eventstore';
import { withAppend } from './event-store-wrapper';
import { telemetryOn } from './telemetry';
import { TRACEPARENT_HEADER, traceparentOf } from './trace-context';
import { inSpan, SERVICE_ATTRIBUTE } from './tracing';

/** @example const store = instrumentEventStore(traceEventStore(sqlite, 'document'), 'document'); */
export function traceEventStore(store: EventStore, service: string): EventStore {
  if (!telemetryOn()) return store;
  return withAppend(store, (streamId, events, expected) =>
    inSpan(
      'eventstore.append',
      {
        attributes: {
          [SERVICE_ATTRIBUTE]: service,
          'docflow.stream': streamId,
          'docflow.event_types': events.map((e) => e.type),
        },
      },
      (span) => {
        const traceparent = traceparentOf(span);
        const traced = traceparent
          ? events.map((e) => ({ ...e, metadata: { ...e.metadata, [TRACEPARENT_HEADER]: traceparent } }))
          : events;
        return store.append(streamId, traced, expected);
      },
    ),
  );
}
