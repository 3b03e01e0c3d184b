/**
 * The key store's contract, for every adapter: a key made once and kept, distinct per account; an
 * erasure for good (no key again, a tombstone); the deployment's claim secret made once.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KeyStore } from './key-store';

const ALICE = 'usr-0a000000-0000-4000-8000-000000000001';
const BOB = 'usr-0b000000-0000-4000-8000-000000000002';

/** `open` gives an empty store each time. */
export function describeKeyStoreContract(
  name: string,
  open: () => Promise<KeyStore>,
  options: { skip?: string } = {},
): void {
  describe(`key store: ${name}`, { skip: options.skip }, () => {
    it('makes a 256-bit key per account on first use and answers the same key after', async () => {
      const keys = await open();
      assert.equal(await keys.existingKey(ALICE), undefined, 'no key before the first use');
      const [alice, again] = await Promise.all([keys.keyFor(ALICE), keys.keyFor(ALICE)]);
      assert.equal(alice.length, 32);
      assert.deepEqual(again, alice, 'two first uses at once make one key');
      assert.deepEqual(await keys.existingKey(ALICE), alice);
      assert.notDeepEqual(await keys.keyFor(BOB), alice);
      assert.equal(await keys.wasErased(ALICE), false);
    });

    it('an erased key is gone for good: never made again, the erasure repeatable, the others kept', async () => {
      const keys = await open();
      const bob = await keys.keyFor(BOB);
      await keys.keyFor(ALICE);
      await keys.shred(ALICE);
      await keys.shred(ALICE);
      assert.equal(await keys.existingKey(ALICE), undefined);
      await assert.rejects(keys.keyFor(ALICE), /was erased/);
      assert.equal(await keys.wasErased(ALICE), true);
      assert.deepEqual(await keys.keyFor(BOB), bob);
    });

    it('an account erased before it had a key never gets one', async () => {
      const keys = await open();
      await keys.shred(BOB);
      assert.equal(await keys.wasErased(BOB), true);
      await assert.rejects(keys.keyFor(BOB), /was erased/);
    });

    it('the claim secret is made once', async () => {
      const keys = await open();
      const secret = await keys.claimSecret();
      assert.equal(secret.length, 32);
      assert.deepEqual(await keys.claimSecret(), secret);
    });
  });
}
