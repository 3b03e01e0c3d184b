import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ADMIN_ACCOUNT_ID } from './accounts';
import { API_KEY_PATTERN, accountIdOfApiKey, apiKeyFor } from './api-keys';

const ID = 'usr-5e3f0c2a-1b2c-4d5e-8f90-0123456789ab';
const SECRET = 'AbC-_123'.repeat(5).concat('xyz');

describe('API keys', () => {
  it("a key names its account's usr- id, and reads back to it", () => {
    for (const id of [ID, ADMIN_ACCOUNT_ID]) {
      const key = apiKeyFor(id, SECRET);
      assert.match(key, API_KEY_PATTERN);
      assert.equal(accountIdOfApiKey(key), id);
    }
    assert.equal(apiKeyFor(ID, SECRET), `dfk_5e3f0c2a1b2c4d5e8f900123456789ab_${SECRET}`);
  });

  it('a string of any other shape names no account', () => {
    const key = apiKeyFor(ID, SECRET);
    for (const other of [
      `dfk_${SECRET}`, // identity's keys before the id was added
      'test-admin-key', // DOCFLOW_ADMIN_KEY is any string
      key.toUpperCase(),
      `${key}x`,
      key.slice(0, -1),
      key.replace('_', '-'),
      ` ${key}`,
    ])
      assert.equal(accountIdOfApiKey(other), undefined, other);
  });

  it('refuses to make a key of an id that is no usr- id, or of a secret that is not 43 base64url characters', () => {
    assert.throws(() => apiKeyFor('svc-1', SECRET), RangeError);
    assert.throws(() => apiKeyFor(ID.toUpperCase(), SECRET), RangeError);
    assert.throws(() => apiKeyFor(ID, SECRET.slice(1)), RangeError);
    assert.throws(() => apiKeyFor(ID, `${SECRET.slice(1)}+`), RangeError);
  });
});
