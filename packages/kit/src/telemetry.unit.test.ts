/** DOCFLOW_TELEMETRY: validated like every variable; `off` leaves the instruments out of the request path. */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { EventStore } from '@docflow/eventstore';
import { trace } from '@opentelemetry/api';
import { Hono } from 'hono';
import { loadConfig } from './config';
import { MetricsEnv } from './engines';
import { instrumentEventStore } from './event-store-metrics';
import { traceEventStore } from './event-store-tracing';
import { httpMetrics } from './http-metrics';
import { metricsRegistry } from './metrics';
import { setTelemetry } from './telemetry';
import { inSpan } from './tracing';

/** Requests the HTTP counter holds for `service`. */
async function counted(service: string): Promise<number> {
  const { values } = await metricsRegistry.getSingleMetric('docflow_http_requests_total')!.get();
  return values.filter((v) => v.labels.service === service).reduce((sum, v) => sum + v.value, 0);
}

function appMeasuredAs(service: string): Hono {
  const app = new Hono();
  app.use(httpMetrics(service));
  app.get('/x', (c) => c.text('x'));
  return app;
}

describe('telemetry switch', () => {
  afterEach(() => setTelemetry('on'));

  it('is on by default, takes on or off, and refuses anything else', () => {
    assert.equal(loadConfig(MetricsEnv, {}).DOCFLOW_TELEMETRY, 'on');
    assert.equal(loadConfig(MetricsEnv, { DOCFLOW_TELEMETRY: 'off' }).DOCFLOW_TELEMETRY, 'off');
    assert.throws(() => loadConfig(MetricsEnv, { DOCFLOW_TELEMETRY: 'false' }), /DOCFLOW_TELEMETRY/);
  });

  it('off: an app built then counts no request; on: it does', async () => {
    setTelemetry('off');
    await appMeasuredAs('telemetry-off').request('/x');
    assert.equal(await counted('telemetry-off'), 0);
    setTelemetry('on');
    await appMeasuredAs('telemetry-on').request('/x');
    assert.equal(await counted('telemetry-on'), 1);
  });

  it('off: the event store is not wrapped and a span is one that records nothing', async () => {
    const store = {} as EventStore;
    setTelemetry('off');
    assert.equal(instrumentEventStore(traceEventStore(store, 's'), 's'), store);
    const spanContext = await inSpan('x', {}, async (span) => span.spanContext());
    assert.equal(trace.isSpanContextValid(spanContext), false);
    setTelemetry('on');
    assert.notEqual(traceEventStore(store, 's'), store);
    assert.notEqual(instrumentEventStore(store, 's'), store);
  });
});
