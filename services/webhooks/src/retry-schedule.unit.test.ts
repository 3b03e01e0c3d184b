import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_RETRY_SCHEDULE, nextAttemptAt, parseRetrySchedule } from './retry-schedule';

describe('retry schedule', () => {
  it('parses delays with units', () => {
    assert.deepEqual(parseRetrySchedule('200ms, 5s,5m,2h'), [200, 5000, 300_000, 7_200_000]);
    assert.throws(() => parseRetrySchedule('5'), /not a delay/);
    assert.throws(() => parseRetrySchedule('5s,,5m'), /not a delay/);
  });

  it('by default keeps retrying for more than 24 hours, each delay longer or equal', () => {
    const schedule = parseRetrySchedule(DEFAULT_RETRY_SCHEDULE);
    assert.ok(schedule.reduce((a, b) => a + b, 0) >= 24 * 3_600_000);
    for (let i = 1; i < schedule.length; i++) assert.ok(schedule[i]! >= schedule[i - 1]!);
  });

  it('schedules the next attempt with at most 20 % jitter, and gives up after the last delay', () => {
    const schedule = [1000, 10_000];
    assert.equal(nextAttemptAt(schedule, 1, 0, 0), 1000);
    assert.equal(nextAttemptAt(schedule, 1, 0, 0.999), 1200);
    assert.equal(nextAttemptAt(schedule, 2, 5, 0.5), 11_005);
    assert.equal(nextAttemptAt(schedule, 3, 0, 0.5), undefined);
  });
});
