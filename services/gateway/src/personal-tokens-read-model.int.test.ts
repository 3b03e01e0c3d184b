import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { createAccountsReadModel } from './accounts-read-model';
import { created, deactivated, delivered } from './test-fixtures';

const ALICE = 'usr-0a000000-0000-4000-8000-000000000001';
const TOKEN = { id: 'a'.repeat(24), name: 'cli', keyHash: 'b'.repeat(64), expires: null };

const issued = (rev: number) =>
  delivered(ALICE, rev, 'PersonalTokenIssued', {
    tokenId: TOKEN.id,
    name: TOKEN.name,
    keyHash: TOKEN.keyHash,
    expiresAt: null,
  });

describe('accounts read model: personal access tokens', () => {
  it('finds a person by a token\u2019s hash until the token is revoked', async () => {
    const accounts = createAccountsReadModel(openLocalDb(':memory:'));
    await accounts.handle(created(ALICE, 'person'));
    await accounts.handle(issued(2));
    assert.deepEqual(accounts.byKeyHash(TOKEN.keyHash)?.personalToken, { id: TOKEN.id, expires: null });
    assert.equal(accounts.byKeyHash(TOKEN.keyHash)?.id, ALICE);
    assert.deepEqual(
      accounts.personalTokensOf(ALICE).map((t) => t.name),
      ['cli'],
    );
    await accounts.handle(delivered(ALICE, 3, 'PersonalTokenRevoked', { tokenId: TOKEN.id }));
    assert.equal(accounts.byKeyHash(TOKEN.keyHash), undefined);
    assert.deepEqual(accounts.personalTokensOf(ALICE), []);
  });

  it('a deactivation ends the person\u2019s tokens, and a reactivation brings none back', async () => {
    const accounts = createAccountsReadModel(openLocalDb(':memory:'));
    await accounts.handle(created(ALICE, 'person'));
    await accounts.handle(issued(2));
    await accounts.handle(deactivated(ALICE, 3));
    await accounts.handle(delivered(ALICE, 4, 'AccountActivationChanged', { active: true }));
    assert.equal(accounts.byKeyHash(TOKEN.keyHash), undefined);
    assert.deepEqual(accounts.personalTokensOf(ALICE), []);
  });

  it('a rebuild takes in the tokens identity lists for each account', async () => {
    const accounts = createAccountsReadModel(openLocalDb(':memory:'));
    const account = {
      id: ALICE,
      kind: 'person' as const,
      active: true,
      roles: [],
      keyHash: null,
      deputy: null,
    };
    await accounts.rebuild(async () => ({
      accounts: [
        { ...account, personalTokens: [{ ...TOKEN, created: '2026-11-26T00:00:00.000Z' }], revision: 2 },
      ],
      next: null,
    }));
    assert.equal(accounts.byKeyHash(TOKEN.keyHash)?.id, ALICE);
    assert.deepEqual(accounts.personalTokensOf(ALICE), [
      { id: TOKEN.id, name: 'cli', created: '2026-11-26T00:00:00.000Z', expires: null },
    ]);
  });
});
