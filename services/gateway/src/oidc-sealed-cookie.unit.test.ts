import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cookieSealer } from './oidc-sealed-cookie';

describe('the sealed cookie of a sign-in with a provider', () => {
  const sealer = cookieSealer('internal-token-of-the-deployment');
  const value = { state: 's-123', nonce: 'n-456', verifier: 'v-789' };

  it('opens what a gateway with the same secret sealed, and hides what it holds', () => {
    const sealed = sealer.seal('login', value, 60_000);
    assert.deepEqual(cookieSealer('internal-token-of-the-deployment').open('login', sealed), value);
    for (const secret of Object.values(value)) assert.ok(!Buffer.from(sealed, 'base64url').includes(secret));
  });

  it('opens nothing altered, sealed for another purpose or under another secret, or expired', () => {
    const sealed = sealer.seal('login', value, 60_000);
    const bytes = Buffer.from(sealed, 'base64url');
    bytes[bytes.length - 1]! ^= 1;
    assert.equal(sealer.open('login', bytes.toString('base64url')), undefined);
    assert.equal(sealer.open('end', sealed), undefined);
    assert.equal(cookieSealer('another-deployment').open('login', sealed), undefined);
    assert.equal(sealer.open('login', sealer.seal('login', value, -1)), undefined);
    assert.equal(sealer.open('login', undefined), undefined);
    assert.equal(sealer.open('login', 'not-sealed'), undefined);
  });
});
