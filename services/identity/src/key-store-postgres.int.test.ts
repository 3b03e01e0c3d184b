/**
 * The key store on the shared PostgreSQL store (infra/local/up.sh): the contract of the SQLite one, and
 * what two identity processes on one schema see of each other's keys and erasures.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { postgresSchemas } from '../../../tests/support/postgres-schemas';
import { keyStoreFileRows, openKeyStore } from './key-store';
import { describeKeyStoreContract } from './key-store-contract';
import { KEY_CACHE_MS, postgresKeyStore } from './key-store-postgres';

const schemas = postgresSchemas('keys');
const { skip } = schemas;

const ALICE = 'usr-0a000000-0000-4000-8000-000000000001';
const BOB = 'usr-0b000000-0000-4000-8000-000000000002';

describeKeyStoreContract(
  'postgres (POSTGRES_URL)',
  async () => postgresKeyStore((await schemas.open(schemas.fresh())).sharedSql()),
  { skip },
);

describe('key store on PostgreSQL: two identity processes', { skip }, () => {
  it('a key made by one is the key of the other; the claim secret is one', async () => {
    const schema = schemas.fresh();
    const [one, two] = [
      postgresKeyStore((await schemas.open(schema)).sharedSql()),
      postgresKeyStore((await schemas.open(schema)).sharedSql()),
    ];
    const alice = await one.keyFor(ALICE);
    assert.deepEqual(await two.existingKey(ALICE), alice);
    assert.deepEqual(await two.keyFor(ALICE), alice);
    assert.deepEqual(await two.claimSecret(), await one.claimSecret());
  });

  it('an erasure by one: the other stops using its cached key within KEY_CACHE_MS, and never makes a new one', async () => {
    const schema = schemas.fresh();
    let clock = 0;
    const one = postgresKeyStore((await schemas.open(schema)).sharedSql());
    const two = postgresKeyStore((await schemas.open(schema)).sharedSql(), { now: () => clock });
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

      const schema = schemas.fresh();
      const keys = postgresKeyStore((await schemas.open(schema)).sharedSql(), {
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
      const again = postgresKeyStore((await schemas.open(schema)).sharedSql(), {
        carryOver: () => keyStoreFileRows(file),
      });
      assert.equal(await again.existingKey(ALICE), undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
