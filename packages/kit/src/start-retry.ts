/** A service's start retried with capped exponential back-off: only a configuration error is final. */
import { setTimeout as sleep } from 'node:timers/promises';
import { type BackoffPolicy, backoffDelayMs } from '@docflow/timing';
import { ConfigError } from './config';

/**
 * 0.5 s, 1 s, 2 s, ... up to 30 s between attempts, jittered into the upper half of each step so that
 * processes started together do not retry in step against an engine that is coming up.
 */
export const START_BACKOFF: BackoffPolicy = { initialMs: 500, maxMs: 30_000, random: Math.random };

export interface StartRetryOptions {
  /** Aborting ends the retries (shutdown): the promise then resolves false. */
  signal: AbortSignal;
  backoff?: BackoffPolicy;
  /** Called after each failed attempt, before waiting `retryInMs`. */
  onFailure(error: unknown, attempt: number, retryInMs: number): void;
}

/**
 * Runs `start` until it resolves (true) or `signal` aborts (false). A ConfigError is thrown at once:
 * no retry mends it. `start` must keep what an earlier attempt started and redo only what failed.
 *
 * @example
 * const started = await startWithRetry(() => service.start(), { signal, onFailure: (e) => log.warn(e) });
 */
export async function startWithRetry(
  start: () => Promise<unknown>,
  options: StartRetryOptions,
): Promise<boolean> {
  const { signal } = options;
  const backoff = options.backoff ?? START_BACKOFF;
  for (let attempt = 1; !signal.aborted; attempt++) {
    try {
      await start();
      return true;
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      if (signal.aborted) break;
      const retryInMs = backoffDelayMs(attempt, backoff);
      options.onFailure(error, attempt, retryInMs);
      await sleep(retryInMs, undefined, { signal }).catch(() => {});
    }
  }
  return false;
}
