/**
 * One Prometheus registry per process, with the process defaults (CPU, memory, event-loop lag, …),
 * `/metrics` in the exposition format, and gauges whose value is measured when scraped.
 * The instruments of each part live beside it (`*-metrics.ts`); all register here.
 */
import { timingSafeEqual } from 'node:crypto';
import type { EventStore } from '@docflow/eventstore';
import { Hono } from 'hono';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { CheckpointStore } from './local-db';
import { problems } from './problem';

export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

/** Seconds: from a sub-millisecond SQLite read to a multi-second OCR page or a stalled engine. */
export const DURATION_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.match(/^Bearer\s+(\S+)$/i)?.[1] ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * `GET /metrics`: open when `token` is undefined (loopback-only deployments), else only with
 * `Authorization: Bearer <token>` (401 otherwise).
 *
 * @example app.route('/', metricsRoutes(config.DOCFLOW_METRICS_TOKEN));
 */
export function metricsRoutes(token: string | undefined): Hono {
  const app = new Hono();
  app.get('/metrics', async (c) => {
    if (token !== undefined && !tokenMatches(c.req.header('authorization'), token)) {
      throw problems.unauthorized('the metrics need the metrics bearer token', 'Bearer realm="metrics"');
    }
    return c.body(await metricsRegistry.metrics(), 200, { 'content-type': metricsRegistry.contentType });
  });
  return app;
}

type Labels<L extends string> = Record<L, string>;

/** How many events a catch-up subscription may report as behind; counting stops there. */
export const BACKLOG_COUNT_LIMIT = 100_000;

/**
 * A gauge measured on scrape from the sources tracked at that moment, one series per label set.
 * A source that fails (engine down) leaves its series out of that scrape.
 */
export function measuredGauge<L extends string>(name: string, help: string, labelNames: readonly L[]) {
  const sources = new Map<string, { labels: Labels<L>; measure: () => Promise<number> }>();
  new Gauge({
    name,
    help,
    labelNames,
    registers: [metricsRegistry],
    async collect() {
      this.reset();
      const measured = await Promise.allSettled(
        [...sources.values()].map(async ({ labels, measure }) => ({ labels, value: await measure() })),
      );
      for (const m of measured) if (m.status === 'fulfilled') this.set(m.value.labels, m.value.value);
    },
  });
  return {
    /** Measures `measure` at each scrape until the returned function is called. */
    track(labels: Labels<L>, measure: () => Promise<number>): () => void {
      const key = JSON.stringify(labels);
      const source = { labels, measure };
      sources.set(key, source);
      return () => {
        if (sources.get(key) === source) sources.delete(key);
      };
    },
  };
}

/** What a catch-up subscription reads from, for its backlog gauge. */
export interface BacklogSource {
  store: EventStore;
  checkpoints: CheckpointStore;
  /** The subscription's checkpoint name. */
  name: string;
  streamPrefixes: string[];
}

/**
 * Measures on each scrape the events of `streamPrefixes` stored after the subscription's checkpoint
 * (counted up to BACKLOG_COUNT_LIMIT), until the returned function is called.
 */
export function trackBacklog(
  gauge: ReturnType<typeof measuredGauge<'service'>>,
  service: string,
  { store, checkpoints, name, streamPrefixes }: BacklogSource,
): () => void {
  return gauge.track({ service }, () =>
    store.countAfter({ after: checkpoints.load(name), streamPrefixes, limit: BACKLOG_COUNT_LIMIT }),
  );
}
