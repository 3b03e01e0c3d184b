/** API keys (random, shown once, stored as SHA-256) and passwords (salted scrypt). */
import { createHash, randomBytes, scrypt } from 'node:crypto';
import { apiKeyFor } from '@docflow/contracts';

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

// scrypt cost: N=2^15, r=8, p=1 (about 32 MiB and ~100 ms here) — slow for an attacker, fine for an update.
const N = 32768;
const R = 8;
const P = 1;
const KEY_LEN = 32;
const MAX_MEM = 64 * 1024 * 1024;

function scryptAsync(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LEN, { N, r: R, p: P, maxmem: MAX_MEM }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$salt$hash`, both base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt);
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}
