import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createKeyedLock } from './keyed-lock';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('keyed lock', () => {
  it('runs work under one key one at a time, in call order', async () => {
    const lock = createKeyedLock();
    const log: string[] = [];
    const gate = deferred();
    const firstStarted = deferred();
    const first = lock.run('a', async () => {
      log.push('first start');
      firstStarted.resolve();
      await gate.promise;
      log.push('first end');
    });
    const second = lock.run('a', async () => {
      log.push('second');
    });
    const third = lock.run('a', async () => {
      log.push('third');
      return 3;
    });
    await firstStarted.promise;
    gate.resolve();
    await Promise.all([first, second]);
    assert.equal(await third, 3);
    assert.deepEqual(log, ['first start', 'first end', 'second', 'third']);
  });

  it('does not hold up another key', async () => {
    const lock = createKeyedLock();
    const gate = deferred();
    const held = lock.run('a', () => gate.promise);
    assert.equal(await lock.run('b', async () => 'b ran'), 'b ran');
    gate.resolve();
    await held;
  });

  it('lets the next one in after work that failed, and passes the error on', async () => {
    const lock = createKeyedLock();
    const failed = lock.run('a', async () => {
      throw new Error('boom');
    });
    const next = lock.run('a', async () => 'next ran');
    await assert.rejects(failed, /boom/);
    assert.equal(await next, 'next ran');
    assert.equal(await lock.run('a', async () => 'again'), 'again');
  });
});
