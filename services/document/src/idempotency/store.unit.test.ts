/**
 * The idempotency store's life of a key: claimed, running, done with its answer, freed, expired; and
 * the bound of keys and bytes each caller may hold.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { idempotencyStore, KEY_LIFETIME_MS } from './store';

const answer = {
  status: 201,
  headers: { 'content-type': 'application/json' },
  doc: { id: '0123456789abcdef01234567', rev: 1 },
};

describe('idempotency store', () => {
  it('a key is claimed once: running until finished, then done with the answer, per scope', () => {
    const store = idempotencyStore(openLocalDb(':memory:'));
    assert.deepEqual(store.begin('svc', 'svc alice', 'k1', 1000), { kind: 'started' });
    assert.deepEqual(store.begin('svc', 'svc alice', 'k1', 1001), { kind: 'running' });
    assert.deepEqual(
      store.begin('svc', 'svc bob', 'k1', 1001),
      { kind: 'started' },
      'another principal, another key',
    );
    store.finish('svc alice', 'k1', 'fp', answer);
    assert.deepEqual(store.begin('svc', 'svc alice', 'k1', 1002), {
      kind: 'done',
      fingerprint: 'fp',
      answer,
    });
  });

  it('a released key is free again; an answer older than 24 hours is forgotten', () => {
    const store = idempotencyStore(openLocalDb(':memory:'));
    store.begin('c', 's', 'k', 0);
    store.release('s', 'k');
    assert.deepEqual(store.begin('c', 's', 'k', 10), { kind: 'started' });
    store.finish('s', 'k', 'fp', answer);
    assert.equal(store.begin('c', 's', 'k', 10 + KEY_LIFETIME_MS - 1).kind, 'done');
    assert.deepEqual(store.begin('c', 's', 'k', 11 + KEY_LIFETIME_MS), { kind: 'started' });
  });

  it('opening the store lets go of claims of requests an earlier process never finished', () => {
    const db = openLocalDb(':memory:');
    const store = idempotencyStore(db);
    store.begin('c', 's', 'running', 0);
    store.begin('c', 's', 'done', 0);
    store.finish('s', 'done', 'fp', answer);
    const reopened = idempotencyStore(db);
    assert.deepEqual(reopened.begin('c', 's', 'running', 1), { kind: 'started' });
    assert.equal(reopened.begin('c', 's', 'done', 1).kind, 'done');
  });

  it('a caller holds at most its bound of keys, whoever it acts for; its keys still replay; others are not held back', () => {
    const store = idempotencyStore(openLocalDb(':memory:'), { keysPerCaller: 3, bytesPerCaller: 1_000_000 });
    for (const [i, scope] of ['svc alice', 'svc bob', 'svc alice'].entries()) {
      assert.equal(store.begin('svc', scope, `k${i}`, 1000 + i).kind, 'started');
      store.finish(scope, `k${i}`, 'fp', answer);
    }
    assert.deepEqual(
      store.begin('svc', 'svc carol', 'k3', 1000 + KEY_LIFETIME_MS / 2),
      { kind: 'full', retryAfterSeconds: KEY_LIFETIME_MS / 2 / 1000 },
      'free again once the oldest key expires',
    );
    assert.equal(store.begin('svc', 'svc alice', 'k0', 2000).kind, 'done', 'a kept key still replays');
    assert.equal(
      store.begin('other', 'other', 'k3', 2000).kind,
      'started',
      'another caller has its own bound',
    );
    assert.equal(store.begin('svc', 'svc carol', 'k3', 1001 + KEY_LIFETIME_MS).kind, 'started');
  });

  it('a caller holds at most its bound of bytes', () => {
    const store = idempotencyStore(openLocalDb(':memory:'), { keysPerCaller: 1000, bytesPerCaller: 1000 });
    let claimed = 0;
    for (let i = 0; i < 20; i++) {
      const key = `${i}`.padStart(100, 'k');
      const begun = store.begin('svc', 'svc', key, 1000);
      if (begun.kind === 'full') break;
      store.finish('svc', key, 'f'.repeat(64), answer);
      claimed++;
    }
    assert.ok(claimed >= 3 && claimed < 20, `a few ~300-byte rows fit in 1000 bytes, not all (${claimed})`);
  });
});
