/**
 * The idempotency store's life of a key, for every adapter: claimed, running, done with its answer,
 * freed, expired; a running claim lapsing; the bound of keys and bytes each caller may hold.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type IdempotencyBounds, type IdempotencyStore, KEY_LIFETIME_MS, RUNNING_CLAIM_MS } from './store';

const answer = {
  status: 201,
  headers: { 'content-type': 'application/json' },
  doc: { id: '0123456789abcdef01234567', rev: 1 },
};

/** `open` gives an empty store each time. */
export function describeIdempotencyStoreContract(
  name: string,
  open: (bounds?: IdempotencyBounds) => Promise<IdempotencyStore>,
  options: { skip?: string } = {},
): void {
  describe(`idempotency store: ${name}`, { skip: options.skip }, () => {
    it('a key is claimed once: running until finished, then done with the answer, per scope', async () => {
      const store = await open();
      assert.deepEqual(await store.begin('svc', 'svc alice', 'k1', 1000), { kind: 'started' });
      assert.deepEqual(await store.begin('svc', 'svc alice', 'k1', 1001), { kind: 'running' });
      assert.deepEqual(
        await store.begin('svc', 'svc bob', 'k1', 1001),
        { kind: 'started' },
        'another principal, another key',
      );
      await store.finish('svc alice', 'k1', 'fp', answer);
      assert.deepEqual(await store.begin('svc', 'svc alice', 'k1', 1002), {
        kind: 'done',
        fingerprint: 'fp',
        answer,
      });
    });

    it('a released key is free again; an answer older than 24 hours is forgotten', async () => {
      const store = await open();
      await store.begin('c', 's', 'k', 0);
      await store.release('s', 'k');
      assert.deepEqual(await store.begin('c', 's', 'k', 10), { kind: 'started' });
      await store.finish('s', 'k', 'fp', answer);
      assert.equal((await store.begin('c', 's', 'k', 10 + KEY_LIFETIME_MS - 1)).kind, 'done');
      assert.deepEqual(await store.begin('c', 's', 'k', 11 + KEY_LIFETIME_MS), { kind: 'started' });
    });

    it('a claim left running (its process died mid-request) lapses after RUNNING_CLAIM_MS', async () => {
      const store = await open();
      await store.begin('c', 's', 'k', 0);
      assert.equal((await store.begin('c', 's', 'k', RUNNING_CLAIM_MS - 1)).kind, 'running');
      assert.deepEqual(await store.begin('c', 's', 'k', RUNNING_CLAIM_MS + 1), { kind: 'started' });
    });

    it('a caller holds at most its bound of keys, whoever it acts for; its keys still replay; others are not held back', async () => {
      const store = await open({ keysPerCaller: 3, bytesPerCaller: 1_000_000 });
      for (const [i, scope] of ['svc alice', 'svc bob', 'svc alice'].entries()) {
        assert.equal((await store.begin('svc', scope, `k${i}`, 1000 + i)).kind, 'started');
        await store.finish(scope, `k${i}`, 'fp', answer);
      }
      assert.deepEqual(
        await store.begin('svc', 'svc carol', 'k3', 1000 + KEY_LIFETIME_MS / 2),
        { kind: 'full', retryAfterSeconds: KEY_LIFETIME_MS / 2 / 1000 },
        'free again once the oldest key expires',
      );
      assert.equal(
        (await store.begin('svc', 'svc alice', 'k0', 2000)).kind,
        'done',
        'a kept key still replays',
      );
      assert.equal(
        (await store.begin('other', 'other', 'k3', 2000)).kind,
        'started',
        'another caller has its own bound',
      );
      assert.equal((await store.begin('svc', 'svc carol', 'k3', 1001 + KEY_LIFETIME_MS)).kind, 'started');
    });

    it('a caller holds at most its bound of bytes', async () => {
      const store = await open({ keysPerCaller: 1000, bytesPerCaller: 1000 });
      let claimed = 0;
      for (let i = 0; i < 20; i++) {
        const key = `${i}`.padStart(100, 'k');
        const begun = await store.begin('svc', 'svc', key, 1000);
        if (begun.kind === 'full') break;
        await store.finish('svc', key, 'f'.repeat(64), answer);
        claimed++;
      }
      assert.ok(claimed >= 3 && claimed < 20, `a few ~300-byte rows fit in 1000 bytes, not all (${claimed})`);
    });

    it('concurrent claims of one key: exactly one starts', async () => {
      const store = await open();
      const begun = await Promise.all(
        Array.from({ length: 8 }, () => store.begin('svc', 'svc', 'race', 5000)),
      );
      assert.equal(begun.filter((b) => b.kind === 'started').length, 1);
      assert.equal(begun.filter((b) => b.kind === 'running').length, 7);
    });
  });
}
