/** Bus consumers: handler durations, retries and dead letters as the adapters report them, and lag. */
import type { Bus, DeliveryObserver } from '@docflow/bus';
import { Counter, Gauge, Histogram } from 'prom-client';
import { DURATION_BUCKETS, metricsRegistry } from './metrics';
import { telemetryOn } from './telemetry';

const handlerDuration = new Histogram({
  name: 'docflow_bus_handler_duration_seconds',
  help: 'Time of one call of a bus consumer handler, by consumer group, topic and outcome',
  labelNames: ['group', 'topic', 'outcome'],
  buckets: DURATION_BUCKETS,
  registers: [metricsRegistry],
});

const retries = new Counter({
  name: 'docflow_bus_retries_total',
  help: 'Messages tried again after their handler failed, by consumer group and topic',
  labelNames: ['group', 'topic'],
  registers: [metricsRegistry],
});

const deadLettered = new Counter({
  name: 'docflow_bus_dead_lettered_total',
  help: 'Messages moved to <topic>.dlq after their handler kept failing, by consumer group and topic',
  labelNames: ['group', 'topic'],
  registers: [metricsRegistry],
});

/** Pass to the bus adapter (`observer`) of every process. */
export const busMetricsObserver: DeliveryObserver = {
  handled: (group, topic, seconds, ok) =>
    handlerDuration.observe({ group, topic, outcome: ok ? 'ok' : 'error' }, seconds),
  retrying: (group, topic) => retries.inc({ group, topic }),
  deadLettered: (group, topic) => deadLettered.inc({ group, topic }),
};

const buses = new Set<Bus>();

new Gauge({
  name: 'docflow_bus_consumer_lag_messages',
  help: 'Messages a consumer group has not handled yet, by group, topic and partition (measured on scrape)',
  labelNames: ['group', 'topic', 'partition'],
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    const measured = await Promise.allSettled([...buses].map((bus) => bus.consumerLag()));
    for (const lags of measured) {
      if (lags.status !== 'fulfilled') continue;
      for (const { groupId, topic, partition, lag } of lags.value)
        this.set({ group: groupId, topic, partition: String(partition) }, lag);
    }
  },
});

/** Reports the lag of `bus`'s consumer groups at each scrape until the returned function is called. */
export function trackConsumerLag(bus: Bus): () => void {
  if (!telemetryOn()) return () => {};
  buses.add(bus);
  return () => buses.delete(bus);
}
