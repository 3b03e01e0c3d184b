/** The idempotency store in the service's local database: the contract, and letting go at open. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { sqliteIdempotencyStore } from './sqlite-store';
import { describeIdempotencyStoreContract } from './store-contract';

describeIdempotencyStoreContract('sqlite (local database)', async (bounds) =>
  sqliteIdempotencyStore(openLocalDb(':memory:'), bounds),
);

describe('idempotency store: sqlite', () => {
  it('opening the store lets go of claims of requests an earlier process never finished', async () => {
    const db = openLocalDb(':memory:');
    const store = sqliteIdempotencyStore(db);
    await store.begin('c', 's', 'running', 0);
    await store.begin('c', 's', 'done', 0);
    await store.finish('s', 'done', 'fp', {
      status: 201,
      headers: {},
      doc: { id: '0123456789abcdef01234567', rev: 1 },
    });
    const reopened = sqliteIdempotencyStore(db);
    assert.deepEqual(await reopened.begin('c', 's', 'running', 1), { kind: 'started' });
    assert.equal((await reopened.begin('c', 's', 'done', 1)).kind, 'done');
  });
});
