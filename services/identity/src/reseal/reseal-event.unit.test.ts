import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openKeyStore } from '../key-store';
import { ERASED, openEvent } from '../personal-data';
import { clearPersonalFields, resealedData } from './reseal-event';

const ADA = 'usr-ada00000-0000-4000-8000-000000000001';
const BOB = 'usr-0b000000-0000-4000-8000-000000000002';
const stream = `account-${ADA}`;

/** Payloads as the release before sealing stored them (the schema of 3a3d319^). */
const OLD: Array<[type: string, data: Record<string, unknown>, clear: string[]]> = [
  [
    'AccountCreated',
    {
      id: ADA,
      kind: 'person',
      email: 'ada@example.com',
      name_first: 'Augusta',
      name_last: 'Lovelace',
      roles: ['svcAdminDocsRW'],
      active: true,
    },
    ['Augusta', 'Lovelace', 'ada@example.com'],
  ],
  [
    'PersonUpdated',
    { changes: { name_mid: 'King-Noel', unit: 'Engines', deputy: { id: BOB, enabled: true } } },
    ['King-Noel', 'Engines'],
  ],
  ['PasswordChanged', { pwdHash: 'scrypt$16384$8$1$c2FsdA$aGFzaA' }, ['scrypt$16384$8$1$c2FsdA$aGFzaA']],
];

describe('re-sealing an identity event written before sealing', () => {
  for (const [type, data, clear] of OLD)
    it(`${type}: its clear fields sealed with the account key; it opens to what it held`, async () => {
      const keys = openKeyStore(':memory:');
      assert.deepEqual(Object.values(clearPersonalFields(stream, type, data)).sort(), clear.sort());
      const sealed = await resealedData(keys, stream, type, data);
      for (const value of clear) assert.ok(!JSON.stringify(sealed).includes(value), value);
      assert.deepEqual(clearPersonalFields(stream, type, sealed), {});
      assert.deepEqual(await openEvent(keys, type, sealed), { type, data });
      assert.ok(await keys.existingKey(ADA), 'a key was made for the account');
    });

  it('keeps what is not personal in clear: ids, kind, roles, the deputy', async () => {
    const keys = openKeyStore(':memory:');
    const created = (await resealedData(keys, stream, 'AccountCreated', OLD[0]![1])) as Record<
      string,
      unknown
    >;
    assert.deepEqual(
      { ...created, sealed: undefined },
      { id: ADA, kind: 'person', roles: ['svcAdminDocsRW'], active: true, sealed: undefined },
    );
    const updated = (await resealedData(keys, stream, 'PersonUpdated', OLD[1]![1])) as { changes: unknown };
    assert.deepEqual(updated.changes, { deputy: { id: BOB, enabled: true } });
  });

  it('leaves alone an event with nothing personal in clear: sealed already, none, or not an account stream', async () => {
    const keys = openKeyStore(':memory:');
    const sealed = await resealedData(keys, stream, 'AccountCreated', OLD[0]![1]);
    assert.equal(await resealedData(keys, stream, 'AccountCreated', sealed), undefined);
    assert.equal(await resealedData(keys, stream, 'RolesChanged', { roles: [] }), undefined);
    assert.equal(await resealedData(keys, 'email-ab12', 'EmailClaimed', { accountId: ADA }), undefined);
  });

  it("an erased account's clear values are sealed under a key that is not kept: they read as erased", async () => {
    const keys = openKeyStore(':memory:');
    await keys.shred(ADA);
    const sealed = await resealedData(keys, stream, 'AccountCreated', OLD[0]![1]);
    assert.equal(await keys.existingKey(ADA), undefined);
    const opened = (await openEvent(keys, 'AccountCreated', sealed)).data as Record<string, unknown>;
    assert.deepEqual([opened.email, opened.name_first, opened.name_last], [ERASED, ERASED, ERASED]);
  });
});
