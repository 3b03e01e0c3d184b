/**
 * Start order never kills a service: the six services started in reverse order (gateway first) while
 * Kafka and MinIO do not answer yet (their addresses are forwarders that listen only later) all stay
 * up, say on `/readyz` what they wait for, and become ready once the engines answer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDoc } from '../support/documents';
import { apiClient } from '../support/http';
import { delayedForwarder, type Forwarder } from '../support/net';
import {
  DISTRIBUTED_SERVICES,
  type DistributedTarget,
  distributedEngines,
  distributedSkipReason,
  startDistributed,
} from '../support/targets';

const WAIT_MS = 120_000;

/** What `/readyz` of a process answers, with its body parsed. */
async function readiness(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}/readyz`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Not ready and says why: a start waiting for Kafka, or a bus (or blob store) check that is down. */
function waitsForAnEngine(body: Record<string, unknown>): boolean {
  if (body.status === 'starting') return /Kafka/.test(String(body.reason));
  const checks = (body.checks ?? {}) as Record<string, string>;
  return body.status === 'not ready' && (checks.bus === 'down' || checks.blobStore === 'down');
}

describe('distributed: start order', { skip: distributedSkipReason(), timeout: 400_000 }, () => {
  let target: DistributedTarget;
  let kafka: Forwarder;
  let minio: Forwarder;

  before(async () => {
    const engines = distributedEngines();
    assert.ok(engines, 'this test runs on the local engines (KAFKA_BROKERS, MINIO_*)');
    kafka = await delayedForwarder(engines.KAFKA_BROKERS!.split(',')[0]!);
    minio = await delayedForwarder(engines.MINIO_ENDPOINT!);
    target = await startDistributed({
      launchOrder: [...DISTRIBUTED_SERVICES].reverse(),
      awaitReady: false,
      env: { KAFKA_BROKERS: kafka.address, MINIO_ENDPOINT: minio.address },
    });
  });
  after(async () => {
    await target?.stop();
    await kafka?.close();
    await minio?.close();
  });

  const exited = () =>
    Object.entries(target.procs)
      .filter(([, p]) => p.child.exitCode !== null || p.child.signalCode !== null)
      .map(([name, p]) => `${name} (${p.child.exitCode ?? p.child.signalCode})`);

  it('before the engines answer: every service stays up, not ready, saying which engine it waits for', async () => {
    const urls = target.processUrls();
    const pending = new Set(Object.keys(urls));
    const last: Record<string, unknown> = {};
    const end = Date.now() + WAIT_MS;
    while (pending.size > 0 && Date.now() < end) {
      for (const name of pending) {
        const { status, body } = await readiness(urls[name]!);
        last[name] = body;
        assert.equal(
          status,
          503,
          `${name} is not ready while Kafka does not answer: ${JSON.stringify(body)}`,
        );
        if (waitsForAnEngine(body)) pending.delete(name);
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    assert.deepEqual([...pending], [], `readiness without a reason: ${JSON.stringify(last)}`);
    const gateway = await fetch(`${target.baseUrl}/api/v2/docForm/view/all`);
    assert.equal(gateway.status, 503, 'the API of a service that has not started answers 503');
    assert.ok(gateway.headers.get('retry-after'), 'with Retry-After');
    assert.match(gateway.headers.get('content-type') ?? '', /problem\+json/);
    assert.deepEqual(exited(), [], 'no process exited');
  });

  it('once Kafka and MinIO answer: all six ready, nothing exited, a create and a read work end to end', async () => {
    await kafka.open();
    await minio.open();
    await target.untilReady(WAIT_MS);
    assert.deepEqual(exited(), [], 'no process exited');
    const output = target.output();
    assert.match(output, /"msg":"gateway not started yet: waiting for Kafka"/, 'the retries are logged');
    for (const service of DISTRIBUTED_SERVICES) assert.match(output, new RegExp(`"msg":"${service} ready"`));

    const created = await createDoc(target.baseUrl, target.adminKey, 'memo', {
      docForm: { valuesByTags: { subject: 'started in any order' } },
      files: [{ name: 'note.txt', content: 'hello', type: 'text/plain' }],
    });
    assert.equal(created.status, 201, created.text);
    const api = apiClient(target.baseUrl);
    const read = await api('GET', `/api/v2/docForm/${created.body._id}`, { key: target.adminKey });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.valuesByTags.subject, 'started in any order');
    assert.equal(read.body.filesList.length, 1);
  });
});
