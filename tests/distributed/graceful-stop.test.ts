/**
 * Every distributed service stops gracefully under load (issue 29, finding 12), by the same runner as
 * the embedded process: while a bounded write load runs through the gateway, each in turn gets
 * SIGTERM twice, the second while it handles the first (as a signal to the process group reaches it
 * again through a parent); it exits 0 with its `<service> stopped` line, leaves no SQLite
 * `-wal`/`-shm` file in its data directory, and is started again; afterwards every acknowledged write
 * is there exactly once. The embedded process and `pnpm start` are in tests/api/graceful-stop.test.ts.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DISTRIBUTED_SERVICES,
  type DistributedTarget,
  distributedSkipReason,
  startDistributed,
} from '../support/targets';
import { badAnswers, converge, describeAnswers, startWriteLoad } from '../support/write-load';

/** Load between two stops, so each restarted service takes writes before the next one goes. */
const BETWEEN_STOPS_MS = 2_000;
const CONVERGE_BOUND_MS = 90_000;
/** Far above the drain bound: a process still there after this is killed and the test fails. */
const STOP_BOUND_MS = 60_000;

/** SQLite's `-wal`/`-shm` files in the data directories of `service` (the gateway's: `gateway-<id>`). */
function walFilesOf(dataDir: string, service: string): string[] {
  return readdirSync(dataDir)
    .filter((dir) => dir === service || dir.startsWith(`${service}-`))
    .flatMap((dir) => readdirSync(join(dataDir, dir)).filter((f) => /-(wal|shm)$/.test(f)));
}

describe('distributed: each service stopped by a repeated SIGTERM under load', {
  skip: distributedSkipReason(),
  timeout: 400_000,
}, () => {
  let target: DistributedTarget;

  before(async () => {
    target = await startDistributed();
  });
  after(async () => {
    await target?.stop();
  });

  it('exit 0, stopped, no WAL left, started again; every acknowledged write there once', async () => {
    const load = startWriteLoad({
      baseUrl: target.baseUrl,
      adminKey: target.adminKey,
      maxWrites: 5_000,
      maxMs: 300_000,
    });
    /** While the gateway is gone nobody can answer: those refused connections are expected. */
    const gatewayGone: Array<{ from: number; to: number }> = [];
    const stops: string[] = [];
    await sleep(BETWEEN_STOPS_MS);
    for (const service of DISTRIBUTED_SERVICES) {
      const proc = target.procs[service]!;
      const stoppedAt = load.elapsed();
      proc.child.kill('SIGTERM');
      // The copy a parent relays (pnpm, tsx) or a process group's signal adds, once the first is in hand.
      await proc.waitForLog((l) => String(l.msg).startsWith('SIGTERM: shutting down'));
      proc.child.kill('SIGTERM');
      const overdue = setTimeout(() => proc.child.kill('SIGKILL'), STOP_BOUND_MS);
      const code = await proc.exited;
      clearTimeout(overdue);
      const left = walFilesOf(target.dataDir, service);
      stops.push(
        `${service}: exit ${code}, stopped line ${proc.output().includes(`"msg":"${service} stopped"`)}, ` +
          `WAL files left [${left.join(', ')}]`,
      );
      await target.restart(service);
      if (service === 'gateway') gatewayGone.push({ from: stoppedAt, to: load.elapsed() });
      await sleep(BETWEEN_STOPS_MS);
    }
    const result = await load.stop();
    console.log(`# graceful stop, distributed: ${stops.join('; ')}`);

    assert.deepEqual(
      stops,
      DISTRIBUTED_SERVICES.map((s) => `${s}: exit 0, stopped line true, WAL files left []`),
    );
    const unanswered = (at: number) => gatewayGone.some((g) => at >= g.from && at <= g.to);
    const bad = badAnswers(result.answers).filter((a) => !(a.status === 0 && unanswered(a.at)));
    assert.deepEqual(describeAnswers(bad), [], 'every write answered 2xx or 503 with Retry-After');
    assert.ok(result.acknowledged.length > 0, 'writes were acknowledged');
    await target.untilReady(CONVERGE_BOUND_MS);
    const converged = await converge(target.baseUrl, target.adminKey, result.acknowledged, CONVERGE_BOUND_MS);
    assert.deepEqual(converged.problems, [], 'every acknowledged write is there exactly once');
  });
});
