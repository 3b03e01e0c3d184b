import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { IdentityEvent } from '@docflow/contracts';
import { openKeyStore } from './key-store';
import { ERASED, openEvent, sealEvent } from './personal-data';

const ALICE = 'usr-0a000000-0000-4000-8000-000000000001';
const BOB = 'usr-0b000000-0000-4000-8000-000000000002';
const created: IdentityEvent = {
  type: 'AccountCreated',
  data: {
    id: ALICE,
    kind: 'person',
    email: 'alice@example.com',
    name_first: 'Alice',
    name_last: 'Archer',
    roles: [],
    active: true,
  },
};
const updated: IdentityEvent = {
  type: 'PersonUpdated',
  data: { changes: { phone_mobile: '+49 170 1', unit: 'Finance', deputy: { id: BOB, enabled: true } } },
};

describe('personal data in identity events', () => {
  it('is stored only sealed, and opens back to the decided event', async () => {
    const keys = openKeyStore(':memory:');
    for (const event of [created, updated]) {
      const stored = await sealEvent(keys, ALICE, event);
      const text = JSON.stringify(stored);
      for (const secret of ['alice@example.com', 'Alice', 'Archer', '+49 170 1', 'Finance'])
        assert.ok(!text.includes(secret), `${secret} in ${text}`);
      assert.deepEqual(await openEvent(keys, stored.type, stored.data), event);
    }
    // What is not personal stays readable for the other services: ids, roles, the deputy's id.
    const stored = await sealEvent(keys, ALICE, updated);
    assert.deepEqual((stored.data as { changes: unknown }).changes, { deputy: { id: BOB, enabled: true } });
  });

  it('reads as erased once the key is shredded, and no key is made again', async () => {
    const keys = openKeyStore(':memory:');
    const stored = await sealEvent(keys, ALICE, created);
    await keys.shred(ALICE);
    assert.deepEqual((await openEvent(keys, stored.type, stored.data)).data, {
      id: ALICE,
      kind: 'person',
      email: ERASED,
      name_first: ERASED,
      name_last: ERASED,
      roles: [],
      active: true,
    });
    const openedUpdate = await openEvent(
      keys,
      'PersonUpdated',
      (await sealEvent(openKeyStore(':memory:'), ALICE, updated)).data,
    );
    assert.ok(!JSON.stringify(openedUpdate).includes('Finance'));
    await assert.rejects(sealEvent(keys, ALICE, updated), /was erased/);
  });

  it('a sealed value moved to another account does not open', async () => {
    const keys = openKeyStore(':memory:');
    const stored = await sealEvent(keys, ALICE, created);
    const data = stored.data as { sealed: { kid: string } };
    await keys.keyFor(BOB);
    await assert.rejects(openEvent(keys, stored.type, { ...data, sealed: { ...data.sealed, kid: BOB } }));
  });

  it('events written before sealing stay readable in clear', async () => {
    const keys = openKeyStore(':memory:');
    assert.deepEqual(await openEvent(keys, created.type, created.data), created);
  });
});
