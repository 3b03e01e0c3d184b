/** The webhooks store in the local database (one process): the contract every adapter meets. */
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { outbox } from './outbox';
import { subscriptionStore } from './subscriptions';
import { CONTRACT_CLAIM_MS, describeWebhooksStoreContract } from './webhooks-store-contract';

describeWebhooksStoreContract('sqlite (local database)', async () => {
  const db = openLocalDb(':memory:');
  return { subscriptions: subscriptionStore(db), outbox: outbox(db, CONTRACT_CLAIM_MS) };
});
