/**
 * When a failed delivery is tried again: a schedule of delays (exponential, Standard Webhooks'
 * suggestion: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h — about 27.6 h in all), each stretched by up to
 * 20 % of jitter so that many failed deliveries do not come back at the same moment.
 */

export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';
const JITTER = 0.2;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `"5s,5m,2h"` → delays in milliseconds; throws on anything else. */
export function parseRetrySchedule(text: string): number[] {
  const delays = text.split(',').map((part) => {
    const match = /^\s*(\d+)(ms|s|m|h)\s*$/.exec(part);
    if (!match) throw new Error(`"${part}" is not a delay like 500ms, 5s, 5m or 2h`);
    return Number(match[1]) * UNIT_MS[match[2]!]!;
  });
  if (delays.length === 0) throw new Error('the retry schedule is empty');
  return delays;
}

/**
 * After failed attempt number `attempts` (1-based): when to try again, or undefined when the schedule
 * is used up and the delivery is given up. `random` is in [0, 1).
 */
export function nextAttemptAt(
  schedule: readonly number[],
  attempts: number,
  nowMs: number,
  random: number,
): number | undefined {
  const delay = schedule[attempts - 1];
  if (delay === undefined) return undefined;
  return nowMs + Math.round(delay * (1 + JITTER * random));
}
