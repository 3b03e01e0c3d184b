import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BusUnavailable } from '@docflow/bus';
import { ConfigError } from './config';
import { startWithRetry } from './start-retry';

/** A start that fails `failures` times with `error`, then succeeds; counts its attempts. */
function flakyStart(failures: number, error: unknown = new BusUnavailable('coordinator loading')) {
  const calls = { n: 0 };
  return {
    calls,
    start: async () => {
      calls.n++;
      if (calls.n <= failures) throw error;
    },
  };
}

const instant = { initialMs: 0, maxMs: 0 };

describe('startWithRetry', () => {
  it('retries until the start succeeds, reporting each failure with its attempt and wait', async () => {
    const { calls, start } = flakyStart(3);
    const failures: Array<[string, number, number]> = [];
    const started = await startWithRetry(start, {
      signal: new AbortController().signal,
      backoff: { initialMs: 1, maxMs: 2, random: () => 1 },
      onFailure: (err, attempt, retryInMs) => failures.push([(err as Error).name, attempt, retryInMs]),
    });
    assert.equal(started, true);
    assert.equal(calls.n, 4);
    assert.deepEqual(failures, [
      ['BusUnavailable', 1, 1],
      ['BusUnavailable', 2, 2],
      ['BusUnavailable', 3, 2],
    ]);
  });

  it('retries any error but a configuration error, which it throws at once', async () => {
    const { calls, start } = flakyStart(1, new TypeError('a bug'));
    assert.equal(
      await startWithRetry(start, { signal: new AbortController().signal, backoff: instant, onFailure() {} }),
      true,
    );
    assert.equal(calls.n, 2);

    const config = flakyStart(5, new ConfigError('bad'));
    await assert.rejects(
      startWithRetry(config.start, {
        signal: new AbortController().signal,
        backoff: instant,
        onFailure() {},
      }),
      ConfigError,
    );
    assert.equal(config.calls.n, 1);
  });

  it('gives up without another attempt once stopped, also during the wait', async () => {
    const stopping = new AbortController();
    const { calls, start } = flakyStart(Number.POSITIVE_INFINITY);
    const started = startWithRetry(start, {
      signal: stopping.signal,
      backoff: { initialMs: 60_000, maxMs: 60_000 },
      onFailure: () => stopping.abort(),
    });
    assert.equal(await started, false);
    assert.equal(calls.n, 1);
  });
});
