/**
 * A brake on guessing API keys: each client address may fail authentication a bounded number of
 * times a minute; past that it gets 429 with `Retry-After` until the minute is over, before its key
 * is even looked at. Counted per gateway process (several gateways each keep their own count).
 */

import { problems } from '@docflow/kit/http';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

const WINDOW_SECONDS = 60;

export interface AuthFailureBrake {
  /** Throws 429 when the caller's address has used up its failures. */
  check(c: Context): Promise<void>;
  /** Counts one failed authentication of the caller's address. */
  failed(c: Context): Promise<void>;
}

/** The caller's address as the socket shows it; a request not served over a socket shares one count. */
function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** @param perMinute failures allowed per address and minute; 0 turns the brake off */
export function authFailureBrake(perMinute: number): AuthFailureBrake {
  if (perMinute === 0) return { check: async () => {}, failed: async () => {} };
  const limiter = new RateLimiterMemory({ points: perMinute, duration: WINDOW_SECONDS });
  // No failure in the last window: no address can be over its count, and nothing needs looking up.
  let lastFailureAt = Number.NEGATIVE_INFINITY;
  const refuse = (res: RateLimiterRes) => {
    throw problems.tooManyRequests(
      'too many failed authentications from this address; wait and try again',
      Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
    );
  };
  return {
    async check(c) {
      if (Date.now() - lastFailureAt > WINDOW_SECONDS * 1000) return;
      const res = await limiter.get(clientAddress(c));
      if (res && res.consumedPoints > perMinute) refuse(res);
    },
    async failed(c) {
      lastFailureAt = Date.now();
      await limiter.consume(clientAddress(c)).catch((res: unknown) => {
        if (res instanceof RateLimiterRes) refuse(res);
        throw res;
      });
    },
  };
}
