import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OidcProvidersEnv } from './oidc-config';

describe('DOCFLOW_OIDC_PROVIDERS', () => {
  it('is empty by default: password sign-in only', () => {
    assert.deepEqual(OidcProvidersEnv.parse(undefined), []);
  });

  it('takes providers with their defaults (scopes, the verified e-mail claim)', () => {
    const [p] = OidcProvidersEnv.parse(
      JSON.stringify([{ id: 'corp', issuer: 'https://id.example.com/realms/corp', clientId: 'docflow' }]),
    );
    assert.deepEqual(p, {
      id: 'corp',
      issuer: 'https://id.example.com/realms/corp',
      clientId: 'docflow',
      scopes: ['openid', 'email', 'profile'],
      emailClaim: 'email',
      createPersons: false,
      rolesClaim: 'groups',
      roleMap: {},
    });
  });

  it('refuses what is not JSON, an unknown member, a bad id, an unknown role and two providers with one id', () => {
    const one = { id: 'corp', issuer: 'https://id.example.com', clientId: 'docflow' };
    for (const bad of [
      '{',
      JSON.stringify([{ ...one, secret: 'x' }]),
      JSON.stringify([{ ...one, id: 'Corp!' }]),
      JSON.stringify([{ ...one, roleMap: { admins: ['root'] } }]),
      JSON.stringify([one, one]),
    ])
      assert.equal(OidcProvidersEnv.safeParse(bad).success, false, bad);
  });
});
