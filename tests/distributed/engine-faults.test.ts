/**
 * Engine faults on the real engines: Kafka, then MinIO, stopped for 30 s under a bounded write load
 * (account and document creations through the gateway) and started again. Every request is answered
 * within HANG_BOUND_MS with a 2xx or a 503 carrying Retry-After (never a 500); reads that do not need
 * the stopped engine keep answering 200; afterwards every acknowledged write is there exactly once and
 * the read models converge by themselves. The engines are private to this file (the shared ones stay
 * up for the other test files); the figures are printed as `# fault …` lines.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { minioTornBlobs } from '../support/blobs';
import { createDoc } from '../support/documents';
import {
  type Engine,
  type PrivateEngines,
  privateEnginesSkipReason,
  startPrivateEngines,
} from '../support/private-engines';
import { type DistributedTarget, startDistributed } from '../support/targets';
import {
  type Answer,
  badAnswers,
  converge,
  describeAnswers,
  longest503Window,
  startReadProbe,
  startWriteLoad,
  timedGet,
} from '../support/write-load';

const OUTAGE_MS = 30_000;
/** Load before the stop and after the restart, so both edges of the outage are under load. */
const LOAD_MARGIN_MS = 4_000;
const CONVERGE_BOUND_MS = 90_000;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

describe('distributed: engine faults', { skip: privateEnginesSkipReason(), timeout: 400_000 }, () => {
  let engines: PrivateEngines;
  let target: DistributedTarget;
  let seed: { id: string; fileId: string };
  const bucket = `docflow-faults-${randomBytes(4).toString('hex')}`;

  before(async () => {
    engines = await startPrivateEngines();
    target = await startDistributed({ engines: engines.env, env: { MINIO_BUCKET: bucket } });
    const created = await createDoc(target.baseUrl, target.adminKey, 'memo', {
      docForm: { valuesByTags: { subject: 'seed' } },
      files: [{ name: 'seed.txt', content: 'seed', type: 'text/plain' }],
    });
    assert.equal(created.status, 201, created.text);
    seed = { id: created.body._id, fileId: created.body.filesList[0].id };
  });
  after(async () => {
    await target?.stop();
    await engines?.destroy();
  });

  /**
   * Runs the load and the read probe, stops `engine` for OUTAGE_MS, starts it again, lets the load
   * run on a little, then waits for every service to be ready and every acknowledged write to be
   * there exactly once. `duringOutage` runs while the engine is down.
   */
  async function outage(engine: Engine, readPaths: string[], duringOutage?: () => Promise<void>) {
    const load = startWriteLoad({
      baseUrl: target.baseUrl,
      adminKey: target.adminKey,
      maxWrites: 2_000,
      maxMs: OUTAGE_MS + 6 * LOAD_MARGIN_MS + 60_000,
    });
    const probe = startReadProbe(target.baseUrl, target.adminKey, readPaths);
    await sleep(LOAD_MARGIN_MS);
    const stoppingAt = load.elapsed();
    await engines.stop(engine);
    const stoppedAt = load.elapsed();
    await Promise.all([sleep(OUTAGE_MS), duringOutage?.()]);
    const startingAt = load.elapsed();
    await engines.start(engine);
    const restartedAt = load.elapsed();
    await sleep(LOAD_MARGIN_MS);
    const result = await load.stop();
    const reads = await probe.stop();
    const t0 = performance.now();
    await target.untilReady(CONVERGE_BOUND_MS);
    const converged = await converge(target.baseUrl, target.adminKey, result.acknowledged, CONVERGE_BOUND_MS);
    const convergeMs = Math.round(performance.now() - t0);
    const window = longest503Window(result.answers);
    const during = result.answers.filter((a) => a.at >= stoppedAt && a.at <= restartedAt);
    console.log(
      `# fault ${engine}: stop took ${seconds(stoppedAt - stoppingAt)}, down ${seconds(startingAt - stoppedAt)}, ` +
        `start to ready ${seconds(restartedAt - startingAt)}; ` +
        `longest 503 window ${(window.windowMs / 1000).toFixed(1)} s (${window.count} answers 503), ` +
        `converged ${(convergeMs / 1000).toFixed(1)} s after the load stopped, ` +
        `${result.acknowledged.length} acknowledged writes checked ` +
        `(${during.filter((a) => a.status >= 200 && a.status < 300).length} of them answered while ${engine} was down), ` +
        `slowest answer ${Math.max(...result.answers.map((a) => a.ms))} ms, ${reads.length} reads`,
    );
    assert.deepEqual(
      describeAnswers(badAnswers(result.answers)),
      [],
      'every write answered 2xx or 503 with Retry-After',
    );
    assert.deepEqual(
      describeAnswers(reads.filter((r) => r.status !== 200)),
      [],
      `reads that need no ${engine} answer 200`,
    );
    assert.ok(during.length > 0, `the load ran while ${engine} was down`);
    assert.ok(result.acknowledged.length > 0, 'writes were acknowledged');
    assert.deepEqual(converged.problems, [], 'every acknowledged write is there exactly once');
    return { during };
  }

  it('Kafka stopped for 30 s and restarted: writes go on, nothing lost or doubled, read models converge', async () => {
    await outage('kafka', [
      `/api/v2/docForm/${seed.id}`,
      '/api/v2/docForm/view/all?pageSize=5',
      `/api/v2/docForm/${seed.id}/file/${seed.fileId}`,
    ]);
  });

  it('MinIO stopped for 30 s during uploads and restarted: uploads 503, no half-written object, writes converge', async () => {
    let download: Answer | undefined;
    const { during } = await outage(
      'minio',
      [`/api/v2/docForm/${seed.id}`, '/api/v2/docForm/view/all?pageSize=5'],
      async () => {
        await sleep(OUTAGE_MS / 2);
        // A read that needs MinIO: 503 with Retry-After, within the bound.
        download = await timedGet(
          target.baseUrl,
          target.adminKey,
          `/api/v2/docForm/${seed.id}/file/${seed.fileId}`,
        );
      },
    );
    assert.equal(download?.status, 503, `a download while MinIO is down: ${JSON.stringify(download)}`);
    assert.ok(download?.retryAfter, 'with Retry-After');
    assert.ok(
      during.some((a) => a.what === 'create document' && a.status === 503),
      'an upload while MinIO is down answers 503',
    );
    const torn = await minioTornBlobs({ ...engines.env, MINIO_BUCKET: bucket });
    assert.deepEqual(torn, [], 'every stored object is whole');
  });
});
