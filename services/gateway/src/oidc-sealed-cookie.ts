/**
 * What the gateway keeps in the browser between two requests of a sign-in with a provider (the login's
 * state, nonce and PKCE verifier; the ID token a logout names): sealed with AES-256-GCM under a key
 * drawn from the internal token, so every gateway of a deployment opens what another sealed, and the
 * browser can neither read nor alter it. Each purpose is bound in (as associated data), and an expiry.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface CookieSealer {
  seal(purpose: string, value: unknown, ttlMs: number): string;
  /** The value sealed for `purpose`, or undefined when it is not one, was altered, or has expired. */
  open(purpose: string, sealed: string | undefined): unknown;
}

export function cookieSealer(secret: string): CookieSealer {
  const key = Buffer.from(hkdfSync('sha256', secret, '', 'docflow oidc cookie', 32));
  return {
    seal(purpose, value, ttlMs) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(purpose));
      const body = Buffer.concat([
        cipher.update(JSON.stringify({ v: value, exp: Date.now() + ttlMs })),
        cipher.final(),
      ]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(purpose, sealed) {
      if (!sealed) return undefined;
      const bytes = Buffer.from(sealed, 'base64url');
      if (bytes.length <= IV_BYTES + TAG_BYTES) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES))
          .setAAD(Buffer.from(purpose))
          .setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        const text = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
        const { v, exp } = JSON.parse(text.toString('utf8')) as { v: unknown; exp: number };
        return Date.now() < exp ? v : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
