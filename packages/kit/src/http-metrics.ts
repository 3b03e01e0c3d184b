/** Requests and their durations, by the matched route template (never the raw path), method and status. */
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { Counter, Histogram } from 'prom-client';
import { DURATION_BUCKETS, metricsRegistry } from './metrics';
import { skipMiddleware, telemetryOn } from './telemetry';

const LABELS = ['service', 'method', 'route', 'status'] as const;

const requests = new Counter({
  name: 'docflow_http_requests_total',
  help: 'HTTP requests answered, by service, method, route template and status',
  labelNames: LABELS,
  registers: [metricsRegistry],
});

const duration = new Histogram({
  name: 'docflow_http_request_duration_seconds',
  help: 'Time to answer an HTTP request (until the response head; a streamed body may take longer)',
  labelNames: LABELS,
  buckets: DURATION_BUCKETS,
  registers: [metricsRegistry],
});

/** Methods a client may send; anything else is counted as `other`, so a client cannot add series. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** @example app.use(httpMetrics('document')); */
export function httpMetrics(service: string): MiddlewareHandler {
  if (!telemetryOn()) return skipMiddleware;
  return async function httpMetricsMiddleware(c, next) {
    const started = performance.now();
    await next();
    // The route of the handler that answered: a template registered in the app (`/api/v2/docForm/:id`),
    // or a middleware's pattern (`/api/*`) when one answered first, or `*` for nothing matched.
    const labels = {
      service,
      method: KNOWN_METHODS.has(c.req.method) ? c.req.method : 'other',
      route: routePath(c) || '*',
      status: String(c.res.status),
    };
    requests.inc(labels);
    duration.observe(labels, (performance.now() - started) / 1000);
  };
}
