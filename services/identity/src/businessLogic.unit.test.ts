import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ADMIN_ACCOUNT_ID,
  type IdentityEvent,
  Rejection,
  type RejectionKind,
  ROLES,
} from '@docflow/contracts';
import { type AccountState, evolveAccount, initialAccount } from './account';
import {
  type ChangeAccount,
  decideBootstrapAdmin,
  decideChangeAccount,
  decideCreateAccount,
  decideEraseAccount,
  decideUpdatePerson,
} from './businessLogic';
import { ERASED } from './personal-data';

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

/** The bootstrap account as its first start leaves it (key hash `b…`), then `more`. */
function bootstrapped(...more: IdentityEvent[]): AccountState {
  return given(...decideBootstrapAdmin({ keyHash: 'b'.repeat(64) }, initialAccount), ...more);
}

function rejects(kind: RejectionKind, fn: () => unknown) {
  assert.throws(fn, (err: unknown) => err instanceof Rejection && err.kind === kind);
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
      rejects('conflict', () =>
        decideCreateAccount({ id: ALICE, input: aliceCreated.data as never }, given(aliceCreated)),
      );
    });
  });

  describe('update person', () => {
    const cases: Array<{
      name: string;
      state: AccountState;
      cmd: Parameters<typeof decideUpdatePerson>[0];
      expect: IdentityEvent[] | RejectionKind;
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
        cmd: { changes: {}, pwdHash: '$argon2id$v=19$m=19456,t=2,p=1$salt$hash' },
        expect: [{ type: 'PasswordSet', data: { pwdHash: '$argon2id$v=19$m=19456,t=2,p=1$salt$hash' } }],
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
        expect: 'invalid',
      },
      {
        name: 'unknown deputy: 400',
        state: given(aliceCreated),
        cmd: { changes: { deputy: { id: BOB, enabled: true } }, deputyAccount: initialAccount },
        expect: 'invalid',
      },
      {
        name: 'a service account as deputy: 400',
        state: given(aliceCreated),
        cmd: { changes: { deputy: { id: SVC, enabled: true } }, deputyAccount: given(svcCreated) },
        expect: 'invalid',
      },
      {
        name: 'no such person: 404',
        state: initialAccount,
        cmd: { changes: { unit: 'x' } },
        expect: 'notFound',
      },
      {
        name: 'a service account is no person: 404',
        state: given(svcCreated),
        cmd: { changes: { unit: 'x' } },
        expect: 'notFound',
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        if (typeof c.expect === 'string') rejects(c.expect, () => decideUpdatePerson(c.cmd, c.state));
        else assert.deepEqual(decideUpdatePerson(c.cmd, c.state), c.expect);
      });
    }
  });

  describe('change account', () => {
    const sysAdminCreated: IdentityEvent = {
      ...svcCreated,
      data: { ...svcCreated.data, roles: ['svcAdminSysRW'] },
    };
    const cases: Array<{
      name: string;
      given: AccountState;
      when: ChangeAccount;
      expect: IdentityEvent[] | { kind: RejectionKind; detail: RegExp };
    }> = [
      {
        name: 'deactivate and change roles',
        given: given(aliceCreated),
        when: { active: false, roles: ['svcAdminDocsRW'] },
        expect: [
          { type: 'AccountActivationChanged', data: { active: false } },
          { type: 'RolesChanged', data: { roles: ['svcAdminDocsRW'] } },
        ],
      },
      {
        name: 'same values: no event',
        given: given(aliceCreated),
        when: { active: true, roles: [] },
        expect: [],
      },
      {
        name: 'unknown account: 404',
        given: initialAccount,
        when: { active: false },
        expect: { kind: 'notFound', detail: /no such account/ },
      },
      {
        name: 'another holder of svcAdminSysRW may lose it (the bootstrap account keeps it)',
        given: given(sysAdminCreated),
        when: { roles: [] },
        expect: [{ type: 'RolesChanged', data: { roles: [] } }],
      },
      {
        name: 'another holder of svcAdminSysRW may be deactivated',
        given: given(sysAdminCreated),
        when: { active: false },
        expect: [{ type: 'AccountActivationChanged', data: { active: false } }],
      },
      {
        name: 'bootstrap: deactivating it is 409',
        given: bootstrapped(),
        when: { active: false },
        expect: { kind: 'conflict', detail: /cannot be deactivated/ },
      },
      {
        name: 'bootstrap: removing every role is 409 naming them',
        given: bootstrapped(),
        when: { roles: [] },
        expect: {
          kind: 'conflict',
          detail: /would remove svcAdminSysRW, svcAdminDocsRW, svcAdminDocRW, svcAdminDocRWD, svcAuditR$/,
        },
      },
      {
        name: 'bootstrap: removing svcAdminSysRW alone is 409',
        given: bootstrapped(),
        when: { active: true, roles: ['svcAdminDocsRW', 'svcAdminDocRW', 'svcAdminDocRWD', 'svcAuditR'] },
        expect: { kind: 'conflict', detail: /would remove svcAdminSysRW$/ },
      },
      {
        name: 'bootstrap: removing another role is 409 as well (it holds every role)',
        given: bootstrapped(),
        when: { roles: ['svcAdminSysRW', 'svcAdminDocsRW', 'svcAdminDocRW', 'svcAuditR'] },
        expect: { kind: 'conflict', detail: /would remove svcAdminDocRWD$/ },
      },
      {
        name: 'bootstrap: restating active and every role, in any order, is no change',
        given: bootstrapped(),
        when: { active: true, roles: [...ROLES].reverse() },
        expect: [],
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        if (Array.isArray(c.expect)) assert.deepEqual(decideChangeAccount(c.when, c.given), c.expect);
        else {
          const { kind, detail } = c.expect;
          assert.throws(
            () => decideChangeAccount(c.when, c.given),
            (err: unknown) => err instanceof Rejection && err.kind === kind && detail.test(err.message),
          );
        }
      });
    }
  });

  describe('bootstrap admin', () => {
    const key = (c: string) => c.repeat(64);
    it('first start creates the active service account with every role and the key', () => {
      const events = decideBootstrapAdmin({ keyHash: key('b') }, initialAccount);
      assert.deepEqual(
        events.map((e) => e.type),
        ['AccountCreated', 'ApiKeyIssued'],
      );
      const state = given(...events);
      assert.equal(state.id, ADMIN_ACCOUNT_ID);
      assert.equal(state.active, true);
      assert.deepEqual(state.roles, [...ROLES]);
      assert.equal(state.apiKeyHash, key('b'));
    });
    it('first start without a key is a programming error', () => {
      assert.throws(() => decideBootstrapAdmin({}, initialAccount), /needs a key/);
    });
    const cases: Array<{
      name: string;
      given: AccountState;
      when: { keyHash?: string };
      expect: IdentityEvent[];
    }> = [
      { name: 'the same key: nothing', given: bootstrapped(), when: { keyHash: key('b') }, expect: [] },
      { name: 'no key given: nothing, the key stays', given: bootstrapped(), when: {}, expect: [] },
      {
        name: 'a new key re-keys',
        given: bootstrapped(),
        when: { keyHash: key('c') },
        expect: [{ type: 'ApiKeyIssued', data: { keyHash: key('c') } }],
      },
      {
        name: 'an account stripped and deactivated by an older version is repaired, key kept',
        given: bootstrapped(
          { type: 'RolesChanged', data: { roles: [] } },
          { type: 'AccountActivationChanged', data: { active: false } },
        ),
        when: {},
        expect: [
          { type: 'AccountActivationChanged', data: { active: true } },
          { type: 'RolesChanged', data: { roles: [...ROLES].sort() } },
        ],
      },
    ];
    for (const c of cases) {
      it(c.name, () => assert.deepEqual(decideBootstrapAdmin(c.when, c.given), c.expect));
    }
  });

  describe('erase account', () => {
    const erased = () => given(aliceCreated, ...decideEraseAccount(given(aliceCreated)));
    it('deactivates and erases; the event names nothing personal', () => {
      assert.deepEqual(decideEraseAccount(given(aliceCreated)), [
        { type: 'AccountActivationChanged', data: { active: false } },
        { type: 'AccountErased', data: {} },
      ]);
    });
    it('an inactive account: AccountErased only', () => {
      const inactive = given(aliceCreated, { type: 'AccountActivationChanged', data: { active: false } });
      assert.deepEqual(decideEraseAccount(inactive), [{ type: 'AccountErased', data: {} }]);
    });
    it('every personal field reads as erased, even one an older event holds in clear', () => {
      const s = given(
        aliceCreated,
        { type: 'PersonUpdated', data: { changes: { unit: 'Ops', phone_mobile: '+1 2' } } },
        { type: 'AccountErased', data: {} },
      );
      for (const field of ['email', 'name_first', 'name_last', 'unit', 'phone_mobile'] as const)
        assert.equal(s[field], ERASED);
      assert.equal(s.active, false);
      assert.equal(s.erased, true);
    });
    it('erasing again appends nothing; updating or reactivating an erased account: 409', () => {
      assert.deepEqual(decideEraseAccount(erased()), []);
      rejects('conflict', () => decideUpdatePerson({ changes: { unit: 'X' } }, { ...erased(), id: ALICE }));
      rejects('conflict', () => decideChangeAccount({ active: true }, erased()));
    });
    it('the bootstrap account admin: 409; no account: 404', () => {
      rejects('conflict', () => decideEraseAccount(bootstrapped()));
      rejects('notFound', () => decideEraseAccount(initialAccount));
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
    it('the published revision skips an event that never reaches the bus (a password change)', () => {
      const changed = given(aliceCreated, { type: 'PasswordChanged', data: { pwdHash: 'scrypt$x' } });
      assert.deepEqual([changed.rev, changed.publishedRev], [2, 1]);
      const then = evolveAccount(
        changed,
        { type: 'RolesChanged', data: { roles: ['svcAuditR'] } },
        {
          revision: 3,
          metadata: { correlationId: 'c', timestamp: 't3' },
        },
      );
      assert.deepEqual([then.rev, then.publishedRev], [3, 3]);
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
