import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type AccountLookUp, cachedAccountByEmail } from './account-lookup';

const ALICE = 'usr-0a000000-0000-4000-8000-000000000001';
const NEW_HOLDER = 'usr-0b000000-0000-4000-8000-000000000002';
const caller = {
  principal: { account: ALICE, subject: ALICE, roles: [] },
  requestId: 'r',
  correlationId: 'c',
};

describe('run-as by e-mail, cached', () => {
  it('asks identity once while the holder is active, again once it is not (erased), never keeps a miss', async () => {
    const holders = new Map([['alice@example.com', ALICE]]);
    const active = new Set([ALICE]);
    const asked: string[] = [];
    const lookUp: AccountLookUp = async (email) => {
      asked.push(email);
      const id = holders.get(email.trim().toLowerCase());
      return id === undefined
        ? undefined
        : { id, kind: 'person', active: active.has(id), deputy: null, publishedRev: 1 };
    };
    const cachedLookUp = cachedAccountByEmail(lookUp, (id) => active.has(id));
    const cached = async (email: string) => (await cachedLookUp(email, caller))?.id;

    assert.equal(await cached('alice@example.com'), ALICE);
    assert.equal(await cached(' Alice@Example.com'), ALICE);
    assert.equal(asked.length, 1);

    // Erased: deactivated, the address freed and taken by a new account.
    active.delete(ALICE);
    holders.set('alice@example.com', NEW_HOLDER);
    active.add(NEW_HOLDER);
    assert.equal(await cached('alice@example.com'), NEW_HOLDER);
    assert.equal(asked.length, 2);

    assert.equal(await cached('nobody@example.com'), undefined);
    assert.equal(await cached('nobody@example.com'), undefined);
    assert.equal(asked.length, 4);
  });
});
