/**
 * Each service SIGKILLed in turn under a bounded write load (account and document creations through
 * the gateway) and restarted: while a service is gone, what needs it answers 503 with Retry-After
 * within HANG_BOUND_MS (never a 500) — except while the gateway itself is gone, when nothing answers
 * at all; afterwards every acknowledged write is there exactly once and the read models converge by
 * themselves. The figures are printed as `# fault …` lines.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DISTRIBUTED_SERVICES,
  type DistributedTarget,
  distributedSkipReason,
  startDistributed,
} from '../support/targets';
import {
  badAnswers,
  converge,
  describeAnswers,
  longest503Window,
  startWriteLoad,
} from '../support/write-load';

/** Load between two kills, so each restarted service takes writes before the next one goes. */
const BETWEEN_KILLS_MS = 3_000;
const CONVERGE_BOUND_MS = 90_000;

describe('distributed: each service SIGKILLed in turn', {
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

  it('under load: 503 with Retry-After while a needed service is gone, every acknowledged write there once', async () => {
    const load = startWriteLoad({
      baseUrl: target.baseUrl,
      adminKey: target.adminKey,
      maxWrites: 5_000,
      maxMs: 300_000,
    });
    /** While the gateway is gone nobody can answer: those refused connections are expected. */
    const gatewayGone: Array<{ from: number; to: number }> = [];
    const restartMs: Record<string, number> = {};
    await sleep(BETWEEN_KILLS_MS);
    for (const service of DISTRIBUTED_SERVICES) {
      const killedAt = load.elapsed();
      await target.restart(service, { kill: true });
      restartMs[service] = load.elapsed() - killedAt;
      if (service === 'gateway') gatewayGone.push({ from: killedAt, to: load.elapsed() });
      await sleep(BETWEEN_KILLS_MS);
    }
    const result = await load.stop();
    const t0 = performance.now();
    await target.untilReady(CONVERGE_BOUND_MS);
    const converged = await converge(target.baseUrl, target.adminKey, result.acknowledged, CONVERGE_BOUND_MS);
    const convergeMs = Math.round(performance.now() - t0);
    const window = longest503Window(result.answers);
    console.log(
      `# fault services SIGKILLed in turn: longest 503 window ${(window.windowMs / 1000).toFixed(1)} s ` +
        `(${window.count} answers 503), converged ${(convergeMs / 1000).toFixed(1)} s after the load stopped, ` +
        `${result.acknowledged.length} acknowledged writes checked; SIGKILL to ready again: ` +
        Object.entries(restartMs)
          .map(([s, ms]) => `${s} ${(ms / 1000).toFixed(1)} s`)
          .join(', '),
    );

    const unanswered = (at: number) => gatewayGone.some((g) => at >= g.from && at <= g.to);
    const bad = badAnswers(result.answers).filter((a) => !(a.status === 0 && unanswered(a.at)));
    assert.deepEqual(describeAnswers(bad), [], 'every write answered 2xx or 503 with Retry-After');
    assert.ok(window.count > 0, 'a write that needed a killed service answered 503');
    assert.ok(result.acknowledged.length > 0, 'writes were acknowledged');
    assert.deepEqual(converged.problems, [], 'every acknowledged write is there exactly once');
  });
});
