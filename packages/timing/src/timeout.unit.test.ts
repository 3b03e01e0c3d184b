import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TimeoutError, withTimeout } from './timeout';

const never = () => new Promise<never>(() => {});

describe('withTimeout', () => {
  it('settles like the promise when it answers in time', async () => {
    assert.equal(await withTimeout(Promise.resolve(42), 60_000, 'answering'), 42);
    await assert.rejects(withTimeout(Promise.reject(new RangeError('no')), 60_000, 'failing'), RangeError);
  });

  it('rejects with a TimeoutError naming the wait, after calling onTimeout, when it does not', async () => {
    let stopped = false;
    await assert.rejects(
      withTimeout(never(), 1, 'opening the PDF', () => {
        stopped = true;
      }),
      (error: unknown) =>
        error instanceof TimeoutError && error.message === 'opening the PDF took longer than 1 ms',
    );
    assert.ok(stopped);
  });
});
