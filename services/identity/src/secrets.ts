/** API keys (random, shown once, stored as SHA-256) and passwords (argon2id). */
import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { apiKeyFor } from '@docflow/contracts';
import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';

/**
 * A new API key for the service account `accountId`: 256 random bits, base64url, after a prefix that
 * makes leaked keys easy to grep and the account's id (contracts' api-keys.ts says why).
 */
export function newApiKey(accountId: string): string {
  return apiKeyFor(accountId, randomBytes(32).toString('base64url'));
}

/** Keys are high-entropy, so one fast hash is enough and lets the gateway look them up by hash. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * argon2id with OWASP's first recommended setting: 19 MiB, 2 passes, 1 lane (about 50 ms here) — slow
 * for an attacker, bearable for a sign-in (the binding's default algorithm is argon2id). Changing them changes new hashes only: each hash names its own.
 */
export const ARGON2_PARAMETERS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** A PHC string `$argon2id$v=19$m=…,t=…,p=…$salt$hash` (salt of 16 random bytes, drawn by the binding). */
export function hashPassword(password: string): Promise<string> {
  return argon2Hash(password, ARGON2_PARAMETERS);
}

// Passwords set before argon2id: `scrypt$N$r$p$salt$hash` (N=2^15, r=8, p=1), still accepted.
const SCRYPT_KEY_LEN = 32;
const SCRYPT_MAX_MEM = 64 * 1024 * 1024;

function verifyScrypt(stored: string, password: string): Promise<boolean> {
  const [, n, r, p, salt, hash] = stored.split('$');
  const expected = Buffer.from(hash ?? '', 'base64url');
  return new Promise((resolve) => {
    scrypt(
      password,
      Buffer.from(salt ?? '', 'base64url'),
      SCRYPT_KEY_LEN,
      { N: Number(n), r: Number(r), p: Number(p), maxmem: SCRYPT_MAX_MEM },
      (err, key) => resolve(!err && key.length === expected.length && timingSafeEqual(key, expected)),
    );
  });
}

/** A hash of no password anybody has: checked when there is no real one, so every sign-in costs alike. */
const DUMMY_HASH = hashPassword(randomBytes(32).toString('base64url'));

/** Whether `password` matches `stored` (argon2id, or an older scrypt hash); `null` checks the dummy. */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (stored?.startsWith('scrypt$')) return verifyScrypt(stored, password);
  const matches = await argon2Verify(stored ?? (await DUMMY_HASH), password).catch(() => false);
  return stored !== null && matches;
}
