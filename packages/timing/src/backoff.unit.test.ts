import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backoffDelayMs } from './backoff';

const steps = (policy: Parameters<typeof backoffDelayMs>[1], failures: number[]) =>
  failures.map((n) => backoffDelayMs(n, policy));

describe('backoffDelayMs', () => {
  it('doubles from the first step and stays at the cap, however long the outage', () => {
    assert.deepEqual(
      steps({ initialMs: 500, maxMs: 30_000 }, [1, 2, 3, 4, 5, 6, 7, 8, 100, 10_000]),
      [500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000],
    );
  });
  it('with jitter, waits between half the step and all of it', () => {
    const longest = { initialMs: 500, maxMs: 30_000, random: () => 1 };
    assert.deepEqual(steps(longest, [1, 7, 100]), [500, 30000, 30000]);
    assert.deepEqual(steps({ ...longest, random: () => 0 }, [1, 7, 100]), [250, 15000, 15000]);
  });
});
