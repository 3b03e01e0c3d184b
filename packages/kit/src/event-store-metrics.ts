/** The event store port wrapped with its durations, conflicts and errors, labelled by the owning service. */
import { type EventStore, WrongExpectedRevision } from '@docflow/eventstore';
import { Counter, Histogram } from 'prom-client';
import { DURATION_BUCKETS, metricsRegistry } from './metrics';
import { telemetryOn } from './telemetry';

const appendDuration = new Histogram({
  name: 'docflow_eventstore_append_duration_seconds',
  help: 'Time of an append to the event store (durable on success), by service and outcome',
  labelNames: ['service', 'outcome'],
  buckets: DURATION_BUCKETS,
  registers: [metricsRegistry],
});

const readDuration = new Histogram({
  name: 'docflow_eventstore_read_duration_seconds',
  help: 'Time of a read of one stream from the event store, by service',
  labelNames: ['service'],
  buckets: DURATION_BUCKETS,
  registers: [metricsRegistry],
});

const conflicts = new Counter({
  name: 'docflow_eventstore_conflicts_total',
  help: 'Appends refused because the stream moved on (expected revision), by service',
  labelNames: ['service'],
  registers: [metricsRegistry],
});

const errors = new Counter({
  name: 'docflow_eventstore_errors_total',
  help: 'Event store calls that failed other than by a conflict, by service and operation',
  labelNames: ['service', 'operation'],
  registers: [metricsRegistry],
});

const owners = new WeakMap<EventStore, string>();

/** The service whose instrumented store this is, for metrics of the parts that use it. */
export function storeOwner(store: EventStore): string | undefined {
  return owners.get(store);
}

/** A wrapper around an instrumented store is owned by the same service. */
export function sameOwner(wrapper: EventStore, inner: EventStore): void {
  const owner = owners.get(inner);
  if (owner !== undefined) owners.set(wrapper, owner);
}

async function timed<T>(run: () => Promise<T>, done: (seconds: number, error: unknown) => void): Promise<T> {
  const started = performance.now();
  try {
    const result = await run();
    done((performance.now() - started) / 1000, undefined);
    return result;
  } catch (error) {
    done((performance.now() - started) / 1000, error);
    throw error;
  }
}

/** @example const store = instrumentEventStore(createSqliteEventStore({ file }), 'document'); */
export function instrumentEventStore(store: EventStore, service: string): EventStore {
  if (!telemetryOn()) return store;
  const countError = (operation: string) => (_seconds: number, error: unknown) => {
    if (error !== undefined) errors.inc({ service, operation });
  };
  const instrumented: EventStore = {
    append: (streamId, events, expected) =>
      timed(
        () => store.append(streamId, events, expected),
        (seconds, error) => {
          const outcome =
            error === undefined ? 'ok' : error instanceof WrongExpectedRevision ? 'conflict' : 'error';
          appendDuration.observe({ service, outcome }, seconds);
          if (outcome === 'conflict') conflicts.inc({ service });
          if (outcome === 'error') errors.inc({ service, operation: 'append' });
        },
      ),
    readStream: (streamId, options) =>
      timed(
        () => store.readStream(streamId, options),
        (seconds, error) => {
          readDuration.observe({ service }, seconds);
          countError('readStream')(seconds, error);
        },
      ),
    subscribeAll: (options, handler) => store.subscribeAll(options, handler),
    headPosition: (options) => timed(() => store.headPosition(options), countError('headPosition')),
    countAfter: (options) => timed(() => store.countAfter(options), countError('countAfter')),
    ping: () => store.ping(),
    close: () => store.close(),
  };
  owners.set(instrumented, service);
  return instrumented;
}
