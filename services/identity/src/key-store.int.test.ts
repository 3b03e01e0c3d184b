import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openKeyStore } from './key-store';
import { describeKeyStoreContract } from './key-store-contract';

const ALICE = 'usr-0a000000-0000-4000-8000-000000000001';
const BOB = 'usr-0b000000-0000-4000-8000-000000000002';

const filesHolding = (dir: string, bytes: Buffer) =>
  readdirSync(dir).filter((name) => readFileSync(join(dir, name)).includes(bytes));

describeKeyStoreContract('sqlite (keys.db)', async () => openKeyStore(':memory:'));

describe('key store (SQLite file)', () => {
  it('keeps keys across a restart; a shredded key is gone from every file and never made again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'identity-keys-'));
    try {
      const file = join(dir, 'keys.db');
      let keys = openKeyStore(file);
      const alice = Buffer.from(await keys.keyFor(ALICE));
      const bob = Buffer.from(await keys.keyFor(BOB));
      const claims = Buffer.from(await keys.claimSecret());
      assert.equal(alice.length, 32);
      keys.close();
      assert.deepEqual(filesHolding(dir, alice), ['keys.db']);

      keys = openKeyStore(file);
      assert.deepEqual(await keys.existingKey(ALICE), alice);
      await keys.shred(ALICE);
      assert.equal(await keys.existingKey(ALICE), undefined);
      assert.deepEqual(filesHolding(dir, alice), [], 'no file holds the shredded key, even while open');
      keys.close();

      keys = openKeyStore(file);
      assert.equal(await keys.existingKey(ALICE), undefined);
      await assert.rejects(keys.keyFor(ALICE), /was erased/);
      assert.deepEqual(await keys.keyFor(BOB), bob);
      assert.deepEqual(await keys.claimSecret(), claims, 'the claim secret survives a restart');
      keys.close();
      assert.deepEqual(filesHolding(dir, alice), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
