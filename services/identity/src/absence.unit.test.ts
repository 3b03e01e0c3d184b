/** An absence is the deputy with a period (issue 36): a new period is a change; the same one is none. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { IdentityEvent } from '@docflow/contracts';
import { type AccountState, evolveAccount, initialAccount } from './account';
import { decideUpdatePerson } from './businessLogic';
import { toPerson } from './representation';

const ALICE = 'usr-aaaaaaaa-0000-4000-8000-000000000001';
const BOB = 'usr-bbbbbbbb-0000-4000-8000-000000000002';
const PERIOD = { from: '2026-12-20T00:00:00.000Z', to: '2027-01-04T00:00:00.000Z' };

const created = (id: string, email: string): IdentityEvent => ({
  type: 'AccountCreated',
  data: { id, kind: 'person', email, name_first: 'A', name_last: 'B', roles: [], active: true },
});
const given = (...events: IdentityEvent[]): AccountState =>
  events.reduce(
    (s, e, i) =>
      evolveAccount(s, e, { revision: i + 1, metadata: { correlationId: 'c', timestamp: `t${i + 1}` } }),
    initialAccount,
  );
const bob = given(created(BOB, 'bob@example.com'));
const withDeputy = (deputy: { id: string; enabled: boolean; from?: string; to?: string }): IdentityEvent => ({
  type: 'PersonUpdated',
  data: { changes: { deputy } },
});

describe('absence: the deputy with a period', () => {
  it('adding a period to the same deputy is a change; setting the same period again is none', () => {
    const alice = given(created(ALICE, 'alice@example.com'), withDeputy({ id: BOB, enabled: true }));
    const update = { changes: { deputy: { id: BOB, enabled: true, ...PERIOD } }, deputyAccount: bob };
    const events = decideUpdatePerson(update, alice);
    assert.deepEqual(events, [withDeputy({ id: BOB, enabled: true, ...PERIOD })]);
    const away = given(created(ALICE, 'alice@example.com'), ...events);
    assert.deepEqual(decideUpdatePerson(update, away), []);
    assert.deepEqual(toPerson(away).deputy, { id: BOB, enabled: 'true', ...PERIOD });
  });

  it('the deputy without a period reads as before: no from, no to', () => {
    const alice = given(created(ALICE, 'alice@example.com'), withDeputy({ id: BOB, enabled: false }));
    assert.deepEqual(toPerson(alice).deputy, { id: BOB, enabled: 'false' });
  });
});
