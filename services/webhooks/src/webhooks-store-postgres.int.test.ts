/**
 * The webhooks store on the shared PostgreSQL store (infra/local/up.sh): the contract of the local one,
 * and two processes on one schema claiming at once, each row handed to one of them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { postgresSchemas } from '../../../tests/support/postgres-schemas';
import { CONTRACT_CLAIM_MS, describeWebhooksStoreContract, enqueue } from './webhooks-store-contract';
import { postgresWebhooksStore } from './webhooks-store-postgres';

const schemas = postgresSchemas('webhooks');
const { skip } = schemas;
/** The webhooks store on a schema of the shared store. */
const open = async (schema: string) =>
  postgresWebhooksStore((await schemas.open(schema)).sharedSql(), CONTRACT_CLAIM_MS);

describeWebhooksStoreContract('postgres (POSTGRES_URL)', () => open(schemas.fresh()), { skip });

describe('webhooks store on PostgreSQL: two processes', { skip }, () => {
  it('claiming at once, each due row goes to one of them; a subscription made through one is the other’s', async () => {
    const schema = schemas.fresh();
    const [one, two] = [await open(schema), await open(schema)];
    const ROWS = 40;
    for (let i = 0; i < ROWS; i++) await enqueue(one.outbox, 'wh_1', `doc-${i}`, `e${i}`, 0);
    const claims = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? one : two).outbox.claim(0, 10)),
    );
    const seqs = claims.flat().map((d) => d.seq);
    assert.equal(seqs.length, ROWS, 'every row claimed');
    assert.equal(new Set(seqs).size, ROWS, 'no row claimed twice');
    assert.ok(claims.filter((c) => c.length > 0).length >= 4, 'the claims were spread');

    await one.subscriptions.add({
      id: 'wh_1',
      url: 'https://a.example/h',
      eventTypes: ['document.created'],
      createdAt: '2026-11-24T07:00:00.000Z',
      secret: 'whsec_x',
    });
    assert.deepEqual(
      (await two.subscriptions.list()).map((s) => s.id),
      ['wh_1'],
    );
  });
});
