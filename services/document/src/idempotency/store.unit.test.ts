/** The idempotency store's life of a key: claimed, running, done with its answer, freed, expired. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { idempotencyStore, KEY_LIFETIME_MS } from './store';

const answer = { status: 201, headers: { 'content-type': 'application/json' }, body: '{"_id":"a"}' };

describe('idempotency store', () => {
  it('a key is claimed once: running until finished, then done with the answer, per scope', () => {
    const store = idempotencyStore(openLocalDb(':memory:'));
    assert.deepEqual(store.begin('svc alice', 'k1', 1000), { kind: 'started' });
    assert.deepEqual(store.begin('svc alice', 'k1', 1001), { kind: 'running' });
    assert.deepEqual(
      store.begin('svc bob', 'k1', 1001),
      { kind: 'started' },
      'another principal, another key',
    );
    store.finish('svc alice', 'k1', 'fp', answer);
    assert.deepEqual(store.begin('svc alice', 'k1', 1002), { kind: 'done', fingerprint: 'fp', answer });
  });

  it('a released key is free again; an answer older than 24 hours is forgotten', () => {
    const store = idempotencyStore(openLocalDb(':memory:'));
    store.begin('s', 'k', 0);
    store.release('s', 'k');
    assert.deepEqual(store.begin('s', 'k', 10), { kind: 'started' });
    store.finish('s', 'k', 'fp', answer);
    assert.equal(store.begin('s', 'k', 10 + KEY_LIFETIME_MS - 1).kind, 'done');
    assert.deepEqual(store.begin('s', 'k', 11 + KEY_LIFETIME_MS), { kind: 'started' });
  });

  it('opening the store lets go of claims of requests an earlier process never finished', () => {
    const db = openLocalDb(':memory:');
    const store = idempotencyStore(db);
    store.begin('s', 'running', 0);
    store.begin('s', 'done', 0);
    store.finish('s', 'done', 'fp', answer);
    const reopened = idempotencyStore(db);
    assert.deepEqual(reopened.begin('s', 'running', 1), { kind: 'started' });
    assert.equal(reopened.begin('s', 'done', 1).kind, 'done');
  });
});
