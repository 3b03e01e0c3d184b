/**
 * The Idempotency-Key middleware in front of a route that answers a document: it keeps the document's
 * id and revision, a replay answers the document at that revision, and a caller holding its bound of
 * keys gets 429 with Retry-After for a new key while its kept keys still replay.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { handleError, type ServiceEnv } from '@docflow/kit/http';
import { Hono } from 'hono';
import { idempotent, jsonFingerprint } from './middleware';
import { sqliteIdempotencyStore } from './sqlite-store';
import { KEY_LIFETIME_MS } from './store';

const ID = '0123456789abcdef01234567';
const documentJson = (rev: number) =>
  JSON.stringify({ _id: ID, big: 'x'.repeat(10_000), _meta: { _rev: rev } });

function app(keysPerCaller: number) {
  const store = sqliteIdempotencyStore(openLocalDb(':memory:'), { keysPerCaller, bytesPerCaller: 1_000_000 });
  let rev = 0;
  const asked: number[] = [];
  const hono = new Hono<ServiceEnv>();
  hono.onError(handleError);
  hono.use(async (c, next) => {
    c.set('principal', { account: 'usr-svc', subject: 'usr-svc', roles: [] });
    await next();
  });
  hono.post(
    '/doc',
    idempotent({
      store,
      fingerprint: jsonFingerprint,
      documentAt: async (id, at) => {
        assert.equal(id, ID);
        asked.push(at);
        return documentJson(at);
      },
    }),
  );
  hono.post('/doc', (c) => c.body(documentJson(++rev), 200, { 'content-type': 'application/json' }));
  const post = (key: string) =>
    hono.request('/doc', { method: 'POST', headers: { 'idempotency-key': key }, body: '{}' });
  return { post, asked, ran: () => rev };
}

describe('Idempotency-Key middleware', () => {
  it('a replay answers the document at the revision of the first answer, byte for byte', async () => {
    const { post, asked } = app(10);
    const first = await post('k1');
    const firstText = await first.text();
    await post('k2'); // the document moves on
    const replay = await post('k1');
    assert.equal(replay.status, 200);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.headers.get('content-type'), 'application/json');
    assert.equal(await replay.text(), firstText);
    assert.deepEqual(asked, [1]);
  });

  it('past the bound of keys a new key is 429 with Retry-After and runs nothing; a kept key replays', async () => {
    const { post, ran } = app(1);
    assert.equal((await post('k1')).status, 200);
    const refused = await post('k2');
    assert.equal(refused.status, 429);
    assert.match(refused.headers.get('content-type') ?? '', /problem\+json/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= KEY_LIFETIME_MS / 1000, `Retry-After ${retryAfter}`);
    const replay = await post('k1');
    assert.equal(replay.status, 200);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    const unkeyed = await post('');
    assert.equal(unkeyed.status, 400, 'an empty key is no key');
    const again = await post('k3');
    assert.equal(again.status, 429);
    assert.equal(ran(), 1, 'the route ran for the first key only');
  });
});
