import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { IdentityEvent } from '@docflow/contracts';
import { ProblemError } from '@docflow/kit';
import { type AccountState, evolveAccount, initialAccount } from './account';
import {
  decideBootstrapAdmin,
  decideChangeAccount,
  decideCreateAccount,
  decideUpdatePerson,
} from './businessLogic';

const ALICE = 'usr-aaaaaaaa-0000-4000-8000-000000000001';
const BOB = 'usr-bbbbbbbb-0000-4000-8000-000000000002';
const SVC = 'usr-cccccccc-0000-4000-8000-000000000003';

/** Given these events, the state. */
function given(...events: IdentityEvent[]): AccountState {
  return events.reduce(
    (s, e, i) =>
      evolveAccount(s, e, { revision: i + 1, metadata: { correlationId: 'c', timestamp: `t${i + 1}` } }),
    initialAccount,
  );
}

const aliceCreated: IdentityEvent = {
  type: 'AccountCreated',
  data: {
    id: ALICE,
    kind: 'person',
    email: 'alice@example.com',
    name_first: 'Alice',
    name_last: 'A',
    roles: [],
    active: true,
  },
};
const bobCreated: IdentityEvent = {
  type: 'AccountCreated',
  data: {
    id: BOB,
    kind: 'person',
    email: 'bob@example.com',
    name_first: 'Bob',
    name_last: 'B',
    roles: [],
    active: true,
  },
};
const svcCreated: IdentityEvent = {
  type: 'AccountCreated',
  data: {
    id: SVC,
    kind: 'service',
    email: 'svc@example.com',
    name_first: 'S',
    name_last: 'C',
    roles: [],
    active: true,
  },
};

function rejects(status: number, fn: () => unknown) {
  assert.throws(fn, (err: unknown) => err instanceof ProblemError && err.status === status);
}

describe('identity decisions', () => {
  describe('create account', () => {
    it('a person: AccountCreated only', () => {
      const events = decideCreateAccount(
        {
          id: ALICE,
          input: {
            kind: 'person',
            email: 'alice@example.com',
            name_first: 'Alice',
            name_last: 'A',
            roles: [],
            active: true,
          },
        },
        initialAccount,
      );
      assert.deepEqual(events, [aliceCreated]);
    });
    it('a service account: AccountCreated and ApiKeyIssued with the hash', () => {
      const keyHash = 'a'.repeat(64);
      const events = decideCreateAccount(
        { id: SVC, input: { ...svcCreated.data, roles: [] } as never, apiKeyHash: keyHash },
        initialAccount,
      );
      assert.deepEqual(
        events.map((e) => e.type),
        ['AccountCreated', 'ApiKeyIssued'],
      );
      assert.deepEqual(events[1]?.data, { keyHash });
    });
    it('an existing account: 409', () => {
      rejects(409, () =>
        decideCreateAccount({ id: ALICE, input: aliceCreated.data as never }, given(aliceCreated)),
      );
    });
  });

  describe('update person', () => {
    const cases: Array<{
      name: string;
      state: AccountState;
      cmd: Parameters<typeof decideUpdatePerson>[0];
      expect: IdentityEvent[] | number;
    }> = [
      {
        name: 'changed fields only',
        state: given(aliceCreated),
        cmd: { changes: { name_first: 'Alice', unit: 'Legal' } },
        expect: [{ type: 'PersonUpdated', data: { changes: { unit: 'Legal' } } }],
      },
      {
        name: 'nothing new: no event',
        state: given(aliceCreated),
        cmd: { changes: { name_first: 'Alice' } },
        expect: [],
      },
      {
        name: 'password: only the hash, in its own event',
        state: given(aliceCreated),
        cmd: { changes: {}, pwdHash: 'scrypt$1$2$3$salt$hash' },
        expect: [{ type: 'PasswordChanged', data: { pwdHash: 'scrypt$1$2$3$salt$hash' } }],
      },
      {
        name: 'a known person as deputy',
        state: given(aliceCreated),
        cmd: { changes: { deputy: { id: BOB, enabled: true } }, deputyAccount: given(bobCreated) },
        expect: [{ type: 'PersonUpdated', data: { changes: { deputy: { id: BOB, enabled: true } } } }],
      },
      {
        name: 'removing a deputy that is not set: no event',
        state: given(aliceCreated),
        cmd: { changes: { deputy: { id: '', enabled: false } } },
        expect: [],
      },
      {
        name: 'self as deputy: 400',
        state: given(aliceCreated),
        cmd: { changes: { deputy: { id: ALICE, enabled: true } }, deputyAccount: given(aliceCreated) },
        expect: 400,
      },
      {
        name: 'unknown deputy: 400',
        state: given(aliceCreated),
        cmd: { changes: { deputy: { id: BOB, enabled: true } }, deputyAccount: initialAccount },
        expect: 400,
      },
      {
        name: 'a service account as deputy: 400',
        state: given(aliceCreated),
        cmd: { changes: { deputy: { id: SVC, enabled: true } }, deputyAccount: given(svcCreated) },
        expect: 400,
      },
      { name: 'no such person: 404', state: initialAccount, cmd: { changes: { unit: 'x' } }, expect: 404 },
      {
        name: 'a service account is no person: 404',
        state: given(svcCreated),
        cmd: { changes: { unit: 'x' } },
        expect: 404,
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        if (typeof c.expect === 'number') rejects(c.expect, () => decideUpdatePerson(c.cmd, c.state));
        else assert.deepEqual(decideUpdatePerson(c.cmd, c.state), c.expect);
      });
    }
  });

  describe('change account', () => {
    it('deactivate and change roles', () => {
      assert.deepEqual(
        decideChangeAccount({ active: false, roles: ['svcAdminDocsRW'] }, given(aliceCreated)),
        [
          { type: 'AccountActivationChanged', data: { active: false } },
          { type: 'RolesChanged', data: { roles: ['svcAdminDocsRW'] } },
        ],
      );
    });
    it('same values: no event', () => {
      assert.deepEqual(decideChangeAccount({ active: true, roles: [] }, given(aliceCreated)), []);
    });
    it('unknown account: 404', () => {
      rejects(404, () => decideChangeAccount({ active: false }, initialAccount));
    });
  });

  describe('bootstrap admin', () => {
    const roles = ['svcAdminSysRW', 'svcAdminDocsRW'] as const;
    it('first start creates the service account with the key', () => {
      const events = decideBootstrapAdmin(
        { id: SVC, keyHash: 'b'.repeat(64), roles: [...roles] },
        initialAccount,
      );
      assert.deepEqual(
        events.map((e) => e.type),
        ['AccountCreated', 'ApiKeyIssued'],
      );
    });
    it('a new key re-keys, the same key does nothing', () => {
      const state = given(
        { ...svcCreated, data: { ...svcCreated.data, roles: [...roles] } },
        { type: 'ApiKeyIssued', data: { keyHash: 'b'.repeat(64) } },
      );
      assert.deepEqual(
        decideBootstrapAdmin({ id: SVC, keyHash: 'b'.repeat(64), roles: [...roles] }, state),
        [],
      );
      assert.deepEqual(decideBootstrapAdmin({ id: SVC, keyHash: 'c'.repeat(64), roles: [...roles] }, state), [
        { type: 'ApiKeyIssued', data: { keyHash: 'c'.repeat(64) } },
      ]);
    });
  });

  describe('evolve', () => {
    it('tracks revision and timestamps', () => {
      const s = given(aliceCreated, { type: 'PersonUpdated', data: { changes: { unit: 'Ops' } } });
      assert.equal(s.rev, 2);
      assert.equal(s.created, 't1');
      assert.equal(s.lastModified, 't2');
      assert.equal(s.unit, 'Ops');
    });
    it('removing the deputy clears it', () => {
      const s = given(
        aliceCreated,
        { type: 'PersonUpdated', data: { changes: { deputy: { id: BOB, enabled: true } } } },
        { type: 'PersonUpdated', data: { changes: { deputy: { id: '', enabled: false } } } },
      );
      assert.equal(s.deputy, null);
    });
  });
});
