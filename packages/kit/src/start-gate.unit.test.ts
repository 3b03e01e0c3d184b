import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BlobStoreUnavailable } from '@docflow/blobstore';
import { BusUnavailable } from '@docflow/bus';
import { StoreUnavailable } from '@docflow/eventstore';
import { createStartGate, startBlocker } from './start-gate';

const app = async (request: Request) => new Response(`served ${new URL(request.url).pathname}`);
const get = (path: string) => new Request(`http://service${path}`);

describe('startBlocker', () => {
  it('names the engine a start waits for, and nothing of the error message', () => {
    assert.equal(startBlocker(new BusUnavailable('Kafka at 10.0.0.7:9092 ...')), 'waiting for Kafka');
    assert.equal(startBlocker(new StoreUnavailable('esdb://secret@host')), 'waiting for the event store');
    assert.equal(startBlocker(new BlobStoreUnavailable('MinIO at 10.0.0.8')), 'waiting for the blob store');
    const other = startBlocker(new TypeError('internal detail'));
    assert.match(other, /TypeError/);
    assert.doesNotMatch(other, /internal detail/);
  });
});

describe('createStartGate', () => {
  it('until open: /readyz 503 starting with the reason, the API 503 problem+json, /healthz and /metrics served', async () => {
    const gate = createStartGate();
    const fetch = gate.guard(app);
    gate.waiting(new BusUnavailable('joining group x: This server does not host this topic-partition'));

    const ready = await fetch(get('/readyz'));
    assert.equal(ready.status, 503);
    assert.equal(ready.headers.get('retry-after'), '5');
    assert.deepEqual(await ready.json(), { status: 'starting', reason: 'waiting for Kafka' });

    const api = await fetch(get('/api/v2/docForm/abc'));
    assert.equal(api.status, 503);
    assert.equal(api.headers.get('content-type'), 'application/problem+json');
    assert.equal(api.headers.get('retry-after'), '5');
    const problem = (await api.json()) as { status: number; detail: string };
    assert.equal(problem.status, 503);
    assert.match(problem.detail, /starting \(waiting for Kafka\)/);

    assert.equal(await (await fetch(get('/healthz'))).text(), 'served /healthz');
    assert.equal(await (await fetch(get('/metrics'))).text(), 'served /metrics');
  });

  it('once open, passes every request on, /readyz included', async () => {
    const gate = createStartGate();
    const fetch = gate.guard(app);
    gate.open();
    assert.equal(await (await fetch(get('/readyz'))).text(), 'served /readyz');
    assert.equal(await (await fetch(get('/api/x'))).text(), 'served /api/x');
  });
});
