/** The workspace's one back-off policy: capped exponential, optionally jittered. */

export interface BackoffPolicy {
  /** The wait after the first failure; it doubles after each further one. */
  initialMs: number;
  /** Upper bound of one wait. */
  maxMs: number;
  /**
   * A number in [0, 1) (e.g. Math.random): when given, the wait falls in the upper half of the step,
   * so that processes failing together do not retry in step. Without it the wait is the step.
   */
  random?: () => number;
}

/**
 * The wait after failure `failures` (1-based): `initialMs`, twice that, ... up to `maxMs`.
 *
 * @example await sleep(backoffDelayMs(attempt, { initialMs: 100, maxMs: 2000 }));
 */
export function backoffDelayMs(failures: number, policy: BackoffPolicy): number {
  // The exponent is capped so a long outage never overflows to Infinity before the min.
  const step = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(failures - 1, 30));
  return policy.random ? Math.round(step / 2 + (step / 2) * policy.random()) : step;
}
