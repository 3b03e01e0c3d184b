/**
 * `/metrics` of every process, read with the Prometheus project's own parser: the exposition parses,
 * holds the families the README lists with values that follow the requests made, and is refused
 * without the metrics token when one is set.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createDoc, createPerson } from '../support/documents';
import { apiClient } from '../support/http';
import { type MetricFamily, parseExposition, samples } from '../support/prometheus';
import { type Target, targets } from '../support/targets';

const TOKEN = `metrics-${randomBytes(16).toString('hex')}`;
const CREATE_ROUTE = '/api/v2/docForm/form/:formName';

async function scrape(baseUrl: string, token?: string) {
  return fetch(`${baseUrl}/metrics`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    signal: AbortSignal.timeout(30_000),
  });
}

/** The value of the one sample `name` with `labels` (a histogram's `_count`, a counter's `_total`). */
function value(families: MetricFamily[], name: string, labels: Record<string, string> = {}): number {
  return samples(families, name, labels).reduce((sum, s) => sum + (s.value ?? 0), 0);
}

function familyNames(families: MetricFamily[]): Set<string> {
  return new Set(families.map((f) => f.name));
}

for (const factory of targets({ env: { DOCFLOW_METRICS_TOKEN: TOKEN } })) {
  describe(`metrics [${factory.name}]`, { skip: factory.skip, timeout: 300_000 }, () => {
    let target: Target;
    const scraped: Record<string, MetricFamily[]> = {};

    before(async () => {
      target = await factory.start();
      const api = apiClient(target.baseUrl);
      await createPerson(api, target.adminKey, 'metrics-reader@example.com');
      const doc = await createDoc(target.baseUrl, target.adminKey, 'memo', {
        docForm: { valuesByTags: { subject: 'counted' } },
      });
      assert.equal(doc.status, 201, doc.text);
      for (const [name, url] of Object.entries(target.processUrls())) {
        const res = await scrape(url, TOKEN);
        assert.equal(res.status, 200, `${name}: ${res.status}`);
        assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
        scraped[name] = await parseExposition(await res.text());
      }
    });
    after(() => target?.stop());

    it('refuses /metrics without the token, or with a wrong one, when DOCFLOW_METRICS_TOKEN is set', async () => {
      for (const [name, url] of Object.entries(target.processUrls())) {
        for (const token of [undefined, `${TOKEN}x`]) {
          const res = await scrape(url, token);
          assert.equal(res.status, 401, `${name} with ${token ? 'a wrong' : 'no'} token`);
          assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
          assert.ok(!(await res.text()).includes('docflow_'), 'no metric leaks in the refusal');
        }
      }
    });

    it('every process reports the process defaults and its HTTP requests by route template', () => {
      for (const [name, families] of Object.entries(scraped)) {
        const names = familyNames(families);
        for (const family of [
          'process_cpu_seconds',
          'process_resident_memory_bytes',
          'nodejs_eventloop_lag_seconds',
        ])
          assert.ok(names.has(family), `${name}: ${family}`);
        assert.ok(value(families, 'process_cpu_seconds_total') > 0, `${name}: CPU time`);
        assert.ok(names.has('docflow_http_requests'), `${name}: HTTP requests`);
        const routes = samples(families, 'docflow_http_requests_total').map((s) => s.labels.route);
        assert.ok(
          routes.every((route) => !/[0-9a-f]{24}|usr-/.test(route ?? '')),
          `${name}: routes are templates, never ids: ${routes.join(' ')}`,
        );
      }
    });

    it('counts the create under its route template with status 201, and its event store appends', () => {
      const all = Object.values(scraped);
      const created = all.map((f) =>
        value(f, 'docflow_http_requests_total', {
          service: 'gateway',
          route: CREATE_ROUTE,
          method: 'POST',
          status: '201',
        }),
      );
      assert.equal(Math.max(...created), 1, 'the gateway counted the one create');
      const timed = all.map((f) =>
        value(f, 'docflow_http_request_duration_seconds_count', { service: 'gateway', route: CREATE_ROUTE }),
      );
      assert.equal(Math.max(...timed), 1);
      const appends = all.map((f) =>
        value(f, 'docflow_eventstore_append_duration_seconds_count', { service: 'document', outcome: 'ok' }),
      );
      assert.ok(Math.max(...appends) >= 1, 'the document service appended');
      const identityAppends = all.map((f) =>
        value(f, 'docflow_eventstore_append_duration_seconds_count', { service: 'identity', outcome: 'ok' }),
      );
      assert.ok(Math.max(...identityAppends) >= 2, 'the bootstrap admin and the person were appended');
    });

    it('reports relay, bus, views, audit heads and fold cache figures', () => {
      const union = new Set(Object.values(scraped).flatMap((f) => [...familyNames(f)]));
      for (const family of [
        'docflow_eventstore_read_duration_seconds',
        'docflow_relay_publish_duration_seconds',
        'docflow_relay_backlog_events',
        'docflow_bus_handler_duration_seconds',
        'docflow_bus_consumer_lag_messages',
        'docflow_views_behind_events',
        'docflow_audit_heads_behind_events',
        'docflow_fold_cache_lookups',
      ])
        assert.ok(union.has(family), family);
      const all = Object.values(scraped);
      const relayed = all.map((f) =>
        value(f, 'docflow_relay_publish_duration_seconds_count', { service: 'document' }),
      );
      assert.ok(Math.max(...relayed) >= 1, 'the document relay published the created document');
      const misses = all.map((f) => value(f, 'docflow_fold_cache_lookups_total', { result: 'miss' }));
      assert.ok(Math.max(...misses) >= 1, 'a first load of a stream is a miss');
      const lag = all.flatMap((f) => samples(f, 'docflow_bus_consumer_lag_messages'));
      assert.ok(
        lag.length > 0 &&
          lag.every((s) => s.value !== null && s.value >= 0 && s.labels.partition !== undefined),
      );
    });
  });
}
