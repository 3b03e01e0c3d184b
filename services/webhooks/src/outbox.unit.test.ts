/**
 * The webhooks store in the local database (one process): the contract every adapter meets, and what
 * is this adapter's own — its rows are in the file, its claims only in the process's memory.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { outbox } from './outbox';
import { subscriptionStore } from './subscriptions';
import { CONTRACT_CLAIM_MS, describeWebhooksStoreContract, enqueue } from './webhooks-store-contract';

describeWebhooksStoreContract('sqlite (local database)', async () => {
  const db = openLocalDb(':memory:');
  return { subscriptions: subscriptionStore(db), outbox: outbox(db, CONTRACT_CLAIM_MS) };
});

describe('webhooks outbox in the local database: a process that dies', () => {
  it('leaves its rows in the file, handed out at once to the next process (its claims died with it), and a message it wrote is not written again', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'webhooks-outbox-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'local.db');

    const first = openLocalDb(file);
    await enqueue(outbox(first, CONTRACT_CLAIM_MS), 'wh_1', 'doc-1', 'e1', 0);
    const claimed = await outbox(first, CONTRACT_CLAIM_MS).claim(0, 10);
    assert.equal(claimed.length, 1, 'the row is claimed by the first process');
    first.close(); // the process ends without recording the attempt

    const next = openLocalDb(file);
    t.after(() => next.close());
    const box = outbox(next, CONTRACT_CLAIM_MS);
    await enqueue(box, 'wh_1', 'doc-1', 'e1', 0); // the bus delivers the message again
    const handedOut = await box.claim(0, 10);
    assert.deepEqual(
      handedOut.map((d) => [d.seq, d.webhookId]),
      claimed.map((d) => [d.seq, d.webhookId]),
      'the same row, with the same webhook-id, once',
    );
  });
});
