import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type IdentityEvent, PERSONAL_TOKENS_MAX, Rejection, type RejectionKind } from '@docflow/contracts';
import { type AccountState, evolveAccount, initialAccount } from './account';
import { decideIssuePersonalToken, decideRevokePersonalToken } from './personal-tokens';

const ALICE = 'usr-aaaaaaaa-0000-4000-8000-000000000001';
const HASH = 'a'.repeat(64);

function given(...events: IdentityEvent[]): AccountState {
  const state = events.reduce(
    (s, e, i) =>
      evolveAccount(s, e, { revision: i + 1, metadata: { correlationId: 'c', timestamp: `t${i + 1}` } }),
    initialAccount,
  );
  return { ...state, id: ALICE };
}

const created = (kind: 'person' | 'service' = 'person'): IdentityEvent => ({
  type: 'AccountCreated',
  data: { id: ALICE, kind, email: 'a@example.com', name_first: 'A', name_last: 'B', roles: [], active: true },
});
const issued = (n: number): IdentityEvent => ({
  type: 'PersonalTokenIssued',
  data: { tokenId: n.toString(16).padStart(24, '0'), name: `t${n}`, keyHash: HASH, expiresAt: null },
});
const issue = (state: AccountState) =>
  decideIssuePersonalToken({ tokenId: 'f'.repeat(24), name: 'cli', keyHash: HASH, expiresAt: null }, state);

function rejects(fn: () => unknown, kind: RejectionKind) {
  assert.throws(fn, (err) => err instanceof Rejection && err.kind === kind);
}

describe('personal access tokens: decisions', () => {
  it('issues a token to an active person, which the state then holds with its time', () => {
    const events = issue(given(created()));
    assert.deepEqual(events, [
      {
        type: 'PersonalTokenIssued',
        data: { tokenId: 'f'.repeat(24), name: 'cli', keyHash: HASH, expiresAt: null },
      },
    ]);
    assert.deepEqual(given(created(), ...events).tokens, [
      { id: 'f'.repeat(24), name: 'cli', keyHash: HASH, created: 't2', expires: null },
    ]);
  });

  it('refuses a service account, an inactive or erased person, nobody, and one token too many', () => {
    rejects(() => issue(given(created('service'))), 'notFound');
    rejects(() => issue(given()), 'notFound');
    const off: IdentityEvent = { type: 'AccountActivationChanged', data: { active: false } };
    rejects(() => issue(given(created(), off)), 'notFound');
    rejects(() => issue(given(created(), { type: 'AccountErased', data: {} })), 'notFound');
    const full = Array.from({ length: PERSONAL_TOKENS_MAX }, (_, i) => issued(i + 1));
    rejects(() => issue(given(created(), ...full)), 'conflict');
  });

  it('a deactivation or erasure ends every token for good; a reactivation brings none back', () => {
    const off: IdentityEvent = { type: 'AccountActivationChanged', data: { active: false } };
    const on: IdentityEvent = { type: 'AccountActivationChanged', data: { active: true } };
    assert.deepEqual(given(created(), issued(1), off, on).tokens, []);
    assert.deepEqual(given(created(), issued(1), off, { type: 'AccountErased', data: {} }).tokens, []);
  });

  it('revokes a live token; an unknown or revoked one is not found', () => {
    const state = given(created(), issued(1), issued(2));
    const events = decideRevokePersonalToken((issued(1).data as { tokenId: string }).tokenId, state);
    assert.deepEqual(events, [
      { type: 'PersonalTokenRevoked', data: { tokenId: (issued(1).data as { tokenId: string }).tokenId } },
    ]);
    assert.deepEqual(
      given(created(), issued(1), issued(2), ...events).tokens.map((t) => t.name),
      ['t2'],
    );
    rejects(() => decideRevokePersonalToken('0'.repeat(24), state), 'notFound');
  });
});
