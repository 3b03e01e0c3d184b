/**
 * The key store on the shared PostgreSQL store (infra/local/up.sh): the contract of the SQLite one, and
 * what two identity processes on one schema see of each other's keys and erasures.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createPostgresEventStore, type PostgresEventStore } from '@docflow/eventstore';
import { keyStoreFileRows, openKeyStore } from './key-store';
import { describeKeyStoreContract } from './key-store-contract';
import { KEY_CACHE_MS, postgresKeyStore } from './key-store-postgres';

const url = process.env.POSTGRES_URL;
const required = process.env.DOCFLOW_ENGINES_REQUIRED === '1';
const skip =
  url || required
    ? undefined
    : 'no PostgreSQL: POSTGRES_URL is not set (infra/local/up.sh writes it to .infra/env)';
const stores: PostgresEventStore[] = [];
after(() => Promise.all(stores.map((s) => s.close())));

const ALICE = 'usr-0a000000-0000-4000-8000-000000000001';
const BOB = 'usr-0b000000-0000-4000-8000-000000000002';

/** A schema of its own, as identity's on the shared store. */
const freshSchema = () => `keys_${randomUUID().replaceAll('-', '').slice(0, 12)}`;

async function openStore(schema: string) {
  assert.ok(url, 'DOCFLOW_ENGINES_REQUIRED=1 but POSTGRES_URL is not set');
  const store = createPostgresEventStore({ connectionString: url!, schema });
  stores.push(store);
  await store.ping(); // creates the schema
  return store;
}

describeKeyStoreContract(
  'postgres (POSTGRES_URL)',
  async () => postgresKeyStore((await openStore(freshSchema())).sharedSql()),
  { skip },
);

describe('key store on PostgreSQL: two identity processes', { skip }, () => {
  it('a key made by one is the key of the other; the claim secret is one', async () => {
    const schema = freshSchema();
    const [one, two] = [
      postgresKeyStore((await openStore(schema)).sharedSql()),
      postgresKeyStore((await openStore(schema)).sharedSql()),
    ];
    const alice = await one.keyFor(ALICE);
    assert.deepEqual(await two.existingKey(ALICE), alice);
    assert.deepEqual(await two.keyFor(ALICE), alice);
    assert.deepEqual(await two.claimSecret(), await one.claimSecret());
  });

  it('an erasure by one: the other stops using its cached key within KEY_CACHE_MS, and never makes a new one', async () => {
    const schema = freshSchema();
    let clock = 0;
    const one = postgresKeyStore((await openStore(schema)).sharedSql());
    const two = postgresKeyStore((await openStore(schema)).sharedSql(), { now: () => clock });
    const alice = await one.keyFor(ALICE);
    assert.deepEqual(await two.existingKey(ALICE), alice, 'the other reads and caches it');
    await one.shred(ALICE);
    await assert.rejects(one.keyFor(ALICE), /was erased/);
    assert.equal(await two.wasErased(ALICE), true);
    clock += KEY_CACHE_MS;
    assert.equal(await two.existingKey(ALICE), undefined, 'no key served after the bound');
    await assert.rejects(two.keyFor(ALICE), /was erased/);
  });
});

describe('key store on PostgreSQL: the keys.db of an earlier version', { skip }, () => {
  it('is moved in at first use — keys, erasures, the claim secret — and then deleted; what the schema holds wins', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'identity-keys-'));
    try {
      const file = join(dir, 'keys.db');
      const local = openKeyStore(file);
      const alice = Buffer.from(await local.keyFor(ALICE));
      await local.keyFor(BOB);
      await local.shred(BOB);
      const claims = Buffer.from(await local.claimSecret());
      local.close();

      const schema = freshSchema();
      const keys = postgresKeyStore((await openStore(schema)).sharedSql(), {
        carryOver: () => keyStoreFileRows(file),
      });
      assert.deepEqual(await keys.existingKey(ALICE), alice, 'an account made before reads as before');
      assert.equal(await keys.wasErased(BOB), true);
      await assert.rejects(keys.keyFor(BOB), /was erased/);
      assert.deepEqual(await keys.claimSecret(), claims, 'the addresses claimed before are found');
      assert.equal(existsSync(file), false, 'no copy of a key stays in the old file');

      // A copy of the old file coming back (restored from a backup) does not undo an erasure made since.
      const restored = openKeyStore(file);
      await restored.keyFor(ALICE);
      restored.close();
      await keys.shred(ALICE);
      const again = postgresKeyStore((await openStore(schema)).sharedSql(), {
        carryOver: () => keyStoreFileRows(file),
      });
      assert.equal(await again.existingKey(ALICE), undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
