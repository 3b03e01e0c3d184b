/** The stop on SIGTERM/SIGINT runs once however often the signal arrives; only a later one forces the exit. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shutdownHandler } from './shutdown-signal';

const WINDOW_MS = 2_000;

/** A handler on a clock the test moves, with a stop the test finishes, recording exits and stops. */
function harness() {
  let clock = 0;
  let stops = 0;
  let settle: (err?: Error) => void = () => {};
  const exits: number[] = [];
  const logs: string[] = [];
  const handle = shutdownHandler(
    () => {
      stops++;
      return new Promise<void>((resolve, reject) => {
        settle = (err) => (err ? reject(err) : resolve());
      });
    },
    (msg) => logs.push(msg),
    { repeatWindowMs: WINDOW_MS, exit: (code) => exits.push(code), now: () => clock },
  );
  return {
    handle,
    exits,
    logs,
    stops: () => stops,
    advance(ms: number) {
      clock += ms;
    },
    /** Ends the stop (with `err`: failed) and lets what follows it run. */
    async finish(err?: Error) {
      settle(err);
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

describe('shutdownHandler', () => {
  it('the first signal runs the stop once; exit 0 when it is done, not before', async () => {
    const h = harness();
    h.handle('SIGTERM');
    assert.equal(h.stops(), 1);
    assert.deepEqual(h.exits, []);
    await h.finish();
    assert.deepEqual(h.exits, [0]);
  });

  it('repeats within the window (the group signal relayed by pnpm or tsx) neither exit nor stop again', async () => {
    const h = harness();
    h.handle('SIGTERM');
    h.handle('SIGTERM');
    h.advance(WINDOW_MS - 1);
    h.handle('SIGINT');
    assert.equal(h.stops(), 1);
    assert.deepEqual(h.exits, []);
    await h.finish();
    assert.deepEqual(h.exits, [0]);
  });

  it('a signal after the window exits 1 at once, the stop unfinished', () => {
    const h = harness();
    h.handle('SIGINT');
    h.advance(WINDOW_MS);
    h.handle('SIGINT');
    assert.deepEqual(h.exits, [1]);
    assert.match(h.logs.at(-1)!, /exiting at once/);
  });

  it('a stop that fails exits 1 and says so', async () => {
    const h = harness();
    h.handle('SIGTERM');
    await h.finish(new Error('store would not close'));
    assert.deepEqual(h.exits, [1]);
    assert.ok(h.logs.includes('shutdown failed'));
  });
});
