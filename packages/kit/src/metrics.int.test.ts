import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createSqliteEventStore, WrongExpectedRevision } from '@docflow/eventstore';
import { Hono } from 'hono';
import { instrumentEventStore } from './event-store-metrics';
import { httpMetrics } from './http-metrics';
import { measuredGauge, metricsRegistry, metricsRoutes } from './metrics';
import { handleError } from './problem';

async function sampleValue(name: string, labels: Record<string, string>): Promise<number | undefined> {
  const metric = metricsRegistry.getSingleMetric(name);
  assert.ok(metric, `${name} is registered`);
  const { values } = await metric.get();
  return values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))?.value;
}

describe('metrics', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-metrics-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('serves the exposition openly without a token, and only to the bearer of the token with one', async () => {
    const open = new Hono().route('/', metricsRoutes(undefined));
    const res = await open.request('/metrics');
    assert.equal(res.status, 200);
    assert.match(await res.text(), /^# HELP process_cpu_user_seconds_total/m);

    const guarded = new Hono().route('/', metricsRoutes('a-metrics-token-0123456789'));
    guarded.onError(handleError);
    for (const authorization of [undefined, 'Bearer wrong', 'Bearer a-metrics-token-012345678', 'Basic x']) {
      const refused = await guarded.request('/metrics', { headers: authorization ? { authorization } : {} });
      assert.equal(refused.status, 401, String(authorization));
      assert.doesNotMatch(await refused.text(), /process_cpu/);
    }
    const allowed = await guarded.request('/metrics', {
      headers: { authorization: 'Bearer a-metrics-token-0123456789' },
    });
    assert.equal(allowed.status, 200);
  });

  it('labels HTTP requests by route template, never by the raw path', async () => {
    const app = new Hono();
    app.use(httpMetrics('unit-http'));
    app.get('/things/:id', (c) => c.json({ id: c.req.param('id') }));
    for (const id of ['a1', 'b2', 'c3']) assert.equal((await app.request(`/things/${id}`)).status, 200);
    await app.request('/nowhere/4711', { method: 'PROPFIND' });
    const labels = { service: 'unit-http', method: 'GET', route: '/things/:id', status: '200' };
    assert.equal(await sampleValue('docflow_http_requests_total', labels), 3);
    const text = await metricsRegistry.getSingleMetricAsString('docflow_http_requests_total');
    assert.doesNotMatch(text, /a1|b2|c3|4711|PROPFIND/);
    assert.equal(
      await sampleValue('docflow_http_requests_total', {
        service: 'unit-http',
        method: 'other',
        status: '404',
      }),
      1,
    );
  });

  it('times event store appends and reads, and counts conflicts apart from errors', async () => {
    const sqlite = createSqliteEventStore({ file: join(dir, 'events.db') });
    const store = instrumentEventStore(sqlite, 'unit-store');
    const event = () => ({
      id: crypto.randomUUID(),
      type: 'Happened',
      version: 1,
      data: {},
      metadata: { correlationId: 'c', timestamp: new Date().toISOString() },
    });
    await store.append('thing-1', [event()], 0);
    await assert.rejects(store.append('thing-1', [event()], 0), WrongExpectedRevision);
    await store.readStream('thing-1');
    await store.close();
    await assert.rejects(store.readStream('thing-1'));
    const appendCount = 'docflow_eventstore_append_duration_seconds';
    const ok = (await metricsRegistry.getSingleMetric(appendCount)!.get()).values.find(
      (v) =>
        (v as { metricName?: string }).metricName === `${appendCount}_count` &&
        v.labels.service === 'unit-store' &&
        v.labels.outcome === 'ok',
    );
    assert.equal(ok?.value, 1);
    assert.equal(await sampleValue('docflow_eventstore_conflicts_total', { service: 'unit-store' }), 1);
    assert.equal(
      await sampleValue('docflow_eventstore_errors_total', {
        service: 'unit-store',
        operation: 'readStream',
      }),
      1,
    );
    assert.equal(
      await sampleValue('docflow_eventstore_errors_total', { service: 'unit-store', operation: 'append' }),
      undefined,
    );
  });

  it('measures a gauge from the tracked sources at scrape time, leaving out a failing one', async () => {
    const gauge = measuredGauge('docflow_unit_backlog', 'test gauge', ['source']);
    let backlog = 3;
    const untrack = gauge.track({ source: 'a' }, async () => backlog);
    gauge.track({ source: 'down' }, async () => {
      throw new Error('engine down');
    });
    assert.equal(await sampleValue('docflow_unit_backlog', { source: 'a' }), 3);
    assert.equal(await sampleValue('docflow_unit_backlog', { source: 'down' }), undefined);
    backlog = 0;
    assert.equal(await sampleValue('docflow_unit_backlog', { source: 'a' }), 0);
    untrack();
    assert.equal(await sampleValue('docflow_unit_backlog', { source: 'a' }), undefined);
  });
});
