/**
 * Stopping is graceful however the signal arrives (issue 29, finding 12): `pnpm start`, exactly as the
 * README starts it, is a process group of its own (as in a terminal or under a service manager) with
 * a fresh data directory, under a bounded write load (document and account creations); the whole
 * group gets SIGTERM (a service manager's stop) or SIGINT (Ctrl-C), so node gets the signal more than
 * once (from the group and relayed by pnpm). Then: exit code 0, the `docflow stopped` line, no SQLite
 * `-wal`/`-shm` file left, and after a restart on the same data every write answered 2xx before the
 * stop is there. The same for one SIGTERM sent to the node process alone.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { type Proc, startProcess, startTsProcess } from '../support/process';
import { newAdminKey, startEmbedded } from '../support/targets';
import { converge, describeAnswers, startWriteLoad } from '../support/write-load';

/** Writes acknowledged before the signal is sent: the load is well under way then. */
const ACKNOWLEDGED_BEFORE_STOP = 20;
const LOAD_BOUND_MS = 120_000;
const CONVERGE_BOUND_MS = 60_000;
/** Far above the drain bound: a process still there after this is killed and the test fails. */
const STOP_BOUND_MS = 60_000;

/** SQLite's write-ahead log and shared-memory files: none stays behind a closed store. */
function walFilesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /-(wal|shm)$/.test(f));
}

/** Resolves once `predicate` holds (checked every 50 ms) or `timeoutMs` passed. */
async function until(predicate: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!predicate() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
}

interface Started {
  proc: Proc;
  baseUrl: string;
  /** Resolves with the exit code once the process and every child holding its output are gone. */
  closed: Promise<number | null>;
  /** SIGKILL to whatever of it is left. */
  kill(): void;
}

/** Sends `signal` to the process group `proc` leads (a no-op once the group is gone). */
function signalGroup(proc: Proc, signal: NodeJS.Signals): void {
  try {
    process.kill(-proc.child.pid!, signal);
  } catch {
    // no process of the group is left
  }
}

/** `pnpm start` as the README runs it, leading a process group of its own. */
async function pnpmStart(dataDir: string, adminKey: string): Promise<Started> {
  const proc = startProcess(
    ['pnpm', 'start'],
    { PORT: '0', HOST: '127.0.0.1', DOCFLOW_DATA_DIR: dataDir, DOCFLOW_ADMIN_KEY: adminKey },
    'pnpm start',
    { detached: true },
  );
  const closed = once(proc.child, 'close').then(([code]) => code as number | null);
  const ready = await proc.waitForLog((l) => l.msg === 'docflow listening');
  const kill = () => signalGroup(proc, 'SIGKILL');
  return { proc, baseUrl: `http://127.0.0.1:${ready.port}`, closed, kill };
}

/** Node on its own (`node --import tsx services/embedded/src/main.ts`), no pnpm or group around it. */
async function nodeStart(dataDir: string, adminKey: string): Promise<Started> {
  const target = await startEmbedded({ dataDir, adminKey });
  const closed = once(target.proc.child, 'close').then(([code]) => code as number | null);
  return {
    proc: target.proc,
    baseUrl: target.baseUrl,
    closed,
    kill: () => target.proc.child.kill('SIGKILL'),
  };
}

/**
 * Starts docflow with `start` on a fresh data directory, loads it, stops it with the signal `send`
 * sends, and checks the stop and, after a restart, the acknowledged writes.
 */
async function stopUnderLoad(
  what: string,
  start: (dataDir: string, adminKey: string) => Promise<Started>,
  send: (proc: Proc) => void,
): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'docflow-graceful-stop-'));
  const adminKey = newAdminKey();
  const running = await start(dataDir, adminKey);
  try {
    const load = startWriteLoad({
      baseUrl: running.baseUrl,
      adminKey,
      maxWrites: 2_000,
      maxMs: LOAD_BOUND_MS,
      concurrency: 4,
    });
    await until(() => load.acknowledgedCount() >= ACKNOWLEDGED_BEFORE_STOP, LOAD_BOUND_MS);
    const signalled = performance.now();
    send(running.proc);
    // A stop that hangs fails the test rather than outliving it.
    const overdue = setTimeout(() => running.kill(), STOP_BOUND_MS);
    const code = await running.closed;
    clearTimeout(overdue);
    const stopMs = Math.round(performance.now() - signalled);
    const result = await load.stop();
    console.log(
      `# graceful stop (${what}): exit ${code} ${stopMs} ms after the signal, ` +
        `${result.acknowledged.length} writes acknowledged, ${result.answers.length} answered or refused`,
    );
    const output = running.proc.output();
    assert.equal(code, 0, `exit code 0:\n${output.slice(-3000)}`);
    assert.match(output, /"msg":"docflow stopped"/, 'the stopped line is logged');
    assert.deepEqual(walFilesBelow(dataDir), [], 'every SQLite store was closed and checkpointed');
    assert.deepEqual(
      describeAnswers(result.answers.filter((a) => a.status >= 500)),
      [],
      'no request answered 5xx while the process stopped',
    );
    assert.ok(result.acknowledged.length >= ACKNOWLEDGED_BEFORE_STOP, 'writes were acknowledged');

    const again = await startEmbedded({ dataDir, adminKey });
    try {
      const converged = await converge(again.baseUrl, adminKey, result.acknowledged, CONVERGE_BOUND_MS);
      assert.deepEqual(converged.problems, [], 'every acknowledged write is there after the restart');
    } finally {
      await again.stop();
    }
  } finally {
    // Whatever happened above, nothing of this run stays behind.
    running.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('graceful stop under write load', { timeout: 600_000 }, () => {
  it('SIGTERM to the process group of `pnpm start`: exit 0, stopped, no WAL left, no acknowledged write lost', async () => {
    await stopUnderLoad('group SIGTERM', pnpmStart, (proc) => signalGroup(proc, 'SIGTERM'));
  });

  it('SIGINT to the process group of `pnpm start` (Ctrl-C): the same', async () => {
    await stopUnderLoad('group SIGINT', pnpmStart, (proc) => signalGroup(proc, 'SIGINT'));
  });

  it('SIGTERM to the node process alone: the same', async () => {
    await stopUnderLoad('node SIGTERM', nodeStart, (proc) => proc.child.kill('SIGTERM'));
  });

  it('SIGTERM during start-up: what was started is stopped the same way, exit 0, no WAL left', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'docflow-graceful-stop-'));
    const proc = startTsProcess(
      'services/embedded/src/main.ts',
      { PORT: '0', HOST: '127.0.0.1', DOCFLOW_DATA_DIR: dataDir, DOCFLOW_ADMIN_KEY: newAdminKey() },
      'docflow starting',
    );
    try {
      // The relays start while the embedded system is built, before the process listens.
      await proc.waitForLog((l) => l.msg === 'relay starting');
      proc.child.kill('SIGTERM');
      const overdue = setTimeout(() => proc.child.kill('SIGKILL'), STOP_BOUND_MS);
      const code = await proc.exited;
      clearTimeout(overdue);
      assert.equal(code, 0, `exit code 0:\n${proc.output().slice(-3000)}`);
      assert.match(proc.output(), /"msg":"docflow stopped"/, 'the stopped line is logged');
      assert.deepEqual(walFilesBelow(dataDir), [], 'every SQLite store was closed and checkpointed');
    } finally {
      await proc.kill();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
