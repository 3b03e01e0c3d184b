/**
 * The relay: follows the event store from a stored checkpoint and publishes each event to the bus,
 * saving the checkpoint, in event order, only once the bus holds the event durably. Publishing never
 * waits for a consumer (on the in-memory bus `durable` waits for them instead), so a slow consumer
 * holds back no other. A crash re-publishes what was not yet durable (consumers dedupe by event id);
 * nothing is lost and nothing is dual-written.
 */
import type { Bus } from '@docflow/bus';
import { type AppendEnvelope, AppendPlace, type EventEnvelope } from '@docflow/contracts';
import type { EventStore, RecordedEvent, Subscription } from '@docflow/eventstore';
import { context } from '@opentelemetry/api';
import { Histogram } from 'prom-client';
import { storeOwner } from './event-store-metrics';
import type { CheckpointStore } from './local-db';
import type { Logger } from './logger';
import { DURATION_BUCKETS, measuredGauge, metricsRegistry, trackBacklog } from './metrics';
import { contextFromTraceparent } from './trace-context';

const publishDuration = new Histogram({
  name: 'docflow_relay_publish_duration_seconds',
  help: 'Time for the bus to accept one event the relay publishes, by service',
  labelNames: ['service'],
  buckets: DURATION_BUCKETS,
  registers: [metricsRegistry],
});

const backlog = measuredGauge(
  'docflow_relay_backlog_events',
  'Events stored but not yet published by the relay, by service (measured on scrape)',
  ['service'],
);

export interface RelayRoute {
  topic: string;
  /** Partition key: the id of the entity the event is about, so its events stay in order. */
  key: string;
}

export interface RelayOptions {
  name: string;
  store: EventStore;
  bus: Bus;
  checkpoints: CheckpointStore;
  streamPrefixes: string[];
  /** Where an event goes; undefined keeps it off the bus. */
  route(event: RecordedEvent): RelayRoute | undefined;
  /**
   * Publish the events of one append as one message (AppendEnvelope), by their `metadata.append`
   * marks (markAppends); an event without a mark is an append of one. Default: one message per event.
   */
  wholeAppends?: boolean;
  log: Logger;
}

export function toEnvelope(event: RecordedEvent): EventEnvelope {
  const { id, type, version, streamId, revision, recordedAt, data, metadata } = event;
  return { id, type, version, streamId, revision, recordedAt, data, metadata };
}

export function startRelay(options: RelayOptions): Subscription {
  const { name, store, bus, checkpoints, route, log } = options;
  const after = checkpoints.load(name);
  log.info({ relay: name, after: after ?? 'start' }, 'relay starting');
  const service = storeOwner(store) ?? name;
  const untrack = trackBacklog(backlog, service, {
    store,
    checkpoints,
    name,
    streamPrefixes: options.streamPrefixes,
  });
  let stopped = false;
  // The checkpoint of each event is saved after the one before it, once this event is durable: a
  // rejected `durable` (the bus closed) stops every later save, so the relay resumes before it.
  let saved: Promise<void> = Promise.resolve();
  function saveWhenDurable(position: string, durable: Promise<void>): void {
    const previous = saved;
    saved = (async () => {
      await previous;
      await durable;
      if (!stopped) checkpoints.save(name, position);
    })();
    saved.catch(() => {});
  }
  /** Publishes `events` (one, or one append whole) as one message; its checkpoint is the last one's. */
  async function publish(events: RecordedEvent[]): Promise<void> {
    const last = events.at(-1)!;
    const target = route(events[0]!);
    let durable = Promise.resolve();
    if (target) {
      const value = options.wholeAppends
        ? ({ events: events.map(toEnvelope) } satisfies AppendEnvelope)
        : toEnvelope(last);
      const started = performance.now();
      // In the trace the event was appended in (an event without one starts its own).
      const published = await context.with(contextFromTraceparent(last.metadata.traceparent), () =>
        bus.publish(target.topic, [
          { id: last.id, key: target.key, value: value as unknown as Record<string, unknown> },
        ]),
      );
      publishDuration.observe({ service }, (performance.now() - started) / 1000);
      durable = published.durable;
    }
    saveWhenDurable(last.position, durable);
  }
  // The first events of an append not yet whole: no checkpoint is saved past them until it is.
  let held: RecordedEvent[] = [];
  const subscription = store.subscribeAll(
    { after, streamPrefixes: options.streamPrefixes },
    async (event) => {
      if (!options.wholeAppends) return publish([event]);
      const place = AppendPlace.safeParse(event.metadata.append);
      const index = place.success ? place.data.index : 0;
      // An append is contiguous in the store; what does not continue the held events ends them.
      if (held.length && (index !== held.length || event.streamId !== held[0]!.streamId)) {
        await publish(held);
        held = [];
      }
      held.push(event);
      if (!place.success || index === place.data.count - 1) {
        await publish(held);
        held = [];
      }
    },
  );
  return {
    stop() {
      stopped = true;
      untrack();
      return subscription.stop();
    },
  };
}
