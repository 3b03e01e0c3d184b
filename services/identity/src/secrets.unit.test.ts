import assert from 'node:assert/strict';
import { randomBytes, scryptSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { hashPassword, verifyPassword } from './secrets';

const PASSWORD = 'Secrets-Unit-Password-1';

/** A hash as docflow stored passwords before argon2id: `scrypt$N$r$p$salt$hash`. */
function legacyScrypt(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', 32768, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}

describe('passwords', () => {
  it('are hashed with argon2id (19 MiB, 2 passes, 1 lane), salted, and verified', async () => {
    const [a, b] = await Promise.all([hashPassword(PASSWORD), hashPassword(PASSWORD)]);
    assert.match(a, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    assert.notEqual(a, b, 'a fresh salt each time');
    assert.ok(!a.includes(PASSWORD));
    assert.equal(await verifyPassword(a, PASSWORD), true);
    assert.equal(await verifyPassword(a, `${PASSWORD}x`), false);
  });

  it('set before argon2id (scrypt) are still verified', async () => {
    const old = legacyScrypt(PASSWORD);
    assert.equal(await verifyPassword(old, PASSWORD), true);
    assert.equal(await verifyPassword(old, 'wrong'), false);
  });

  it('without a stored hash nothing matches (a dummy hash is checked, for alike time)', async () => {
    assert.equal(await verifyPassword(null, PASSWORD), false);
    assert.equal(await verifyPassword(null, ''), false);
  });
});
