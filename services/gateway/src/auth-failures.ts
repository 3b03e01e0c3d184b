/**
 * A brake on guessing API keys, session tokens and passwords: each client address (and, for a
 * sign-in, each e-mail) may fail authentication a bounded number of times a minute; past that it gets
 * 429 with `Retry-After` until the minute is over, before its credentials are even looked at. Counted
 * per gateway process (several gateways each keep their own count).
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
export function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The same brake over any key (e.g. the e-mail a sign-in names). */
export interface KeyedFailureBrake {
  /** Throws 429 when `key` has used up its failures. */
  check(key: string): Promise<void>;
  /** Counts one failure of `key`. */
  failed(key: string): Promise<void>;
}

/**
 * @param perMinute failures allowed per key and minute; 0 turns the brake off
 * @param what what is counted, for the 429's detail ("this address")
 */
export function keyedFailureBrake(perMinute: number, what: string): KeyedFailureBrake {
  if (perMinute === 0) return { check: async () => {}, failed: async () => {} };
  const limiter = new RateLimiterMemory({ points: perMinute, duration: WINDOW_SECONDS });
  // No failure in the last window: no key can be over its count, and nothing needs looking up.
  let lastFailureAt = Number.NEGATIVE_INFINITY;
  const refuse = (res: RateLimiterRes) => {
    throw problems.tooManyRequests(
      `too many failed authentications from ${what}; wait and try again`,
      Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
    );
  };
  return {
    async check(key) {
      if (Date.now() - lastFailureAt > WINDOW_SECONDS * 1000) return;
      const res = await limiter.get(key);
      if (res && res.consumedPoints > perMinute) refuse(res);
    },
    async failed(key) {
      lastFailureAt = Date.now();
      await limiter.consume(key).catch((res: unknown) => {
        if (res instanceof RateLimiterRes) refuse(res);
        throw res;
      });
    },
  };
}

/** @param perMinute failures allowed per address and minute; 0 turns the brake off */
export function authFailureBrake(perMinute: number): AuthFailureBrake {
  const brake = keyedFailureBrake(perMinute, 'this address');
  return {
    check: (c) => brake.check(clientAddress(c)),
    failed: (c) => brake.failed(clientAddress(c)),
  };
}
