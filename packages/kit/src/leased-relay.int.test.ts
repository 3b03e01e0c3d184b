/**
 * Two processes' relays on one shared PostgreSQL store (infra/local/up.sh): only the lease holder
 * publishes, so each event reaches the bus once; when the holder dies, the other takes over within
 * the lease's time to live and publishes what came after, from the checkpoint the lease carries.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type Bus, createInProcessBus } from '@docflow/bus';
import { createPostgresEventStore, type NewEvent } from '@docflow/eventstore';
import { startLeasedRelay } from './leased-relay';
import { checkpointStore, openLocalDb } from './local-db';
import { createLogger } from './logger';

const url = process.env.POSTGRES_URL;
const enginesRequired = process.env.DOCFLOW_ENGINES_REQUIRED === '1';
const skip = url
  ? undefined
  : 'no PostgreSQL: POSTGRES_URL is not set (infra/local/up.sh writes it to .infra/env)';
const log = createLogger('test', 'silent');
const TTL_MS = 600;

const event = (n: number): NewEvent => ({
  id: randomUUID(),
  type: 'Numbered',
  version: 1,
  data: { n },
  metadata: { correlationId: 'c', timestamp: new Date().toISOString() },
});

async function until(cond: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('leased relay on a shared PostgreSQL store', { skip: enginesRequired ? undefined : skip }, () => {
  assert.ok(url, 'DOCFLOW_ENGINES_REQUIRED=1 but POSTGRES_URL is not set');
  const schema = `relay_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const dir = mkdtempSync(join(tmpdir(), 'docflow-leased-relay-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('publishes each event once while one process holds the lease, and fails over when it dies', async () => {
    const bus = createInProcessBus();
    const published = new Map<number, number>();
    const consumer = await bus.subscribe({ groupId: 'g', topics: ['t'] }, async (m) => {
      const n = (m.value.data as { n: number }).n;
      published.set(n, (published.get(n) ?? 0) + 1);
    });
    // Two processes of one service: each its own connection pool and its own local database.
    const publishers: string[] = [];
    const processes = ['a', 'b'].map((holder) => {
      const own: Bus = {
        ...bus,
        publish(topic, messages) {
          publishers.push(holder);
          return bus.publish(topic, messages);
        },
      };
      const store = createPostgresEventStore({ connectionString: url!, schema, pollIntervalMs: 100 });
      const relay = startLeasedRelay({
        name: 'svc-relay',
        holder,
        store,
        bus: own,
        lease: store.serviceLease(TTL_MS),
        localCheckpoints: checkpointStore(openLocalDb(join(dir, `${holder}.db`))),
        streamPrefixes: ['doc-'],
        route: (e) => ({ topic: 't', key: e.streamId }),
        log,
      });
      return { holder, store, relay };
    });
    const writer = processes[0]!.store;
    for (let n = 0; n < 20; n++) await writer.append(`doc-${n}`, [event(n)], 0);
    await until(() => published.size === 20);
    const first = publishers[0];
    assert.deepEqual(new Set(publishers), new Set([first]), 'one process published');
    // A few renewals later, still nothing published twice: the standby never relayed.
    await new Promise((r) => setTimeout(r, TTL_MS * 2));
    assert.deepEqual(
      [...published.values()].filter((count) => count !== 1),
      [],
    );
    assert.deepEqual(new Set(publishers), new Set([first]));

    // The holder dies: its connections go, it renews no more and releases nothing.
    const dead = processes.find((p) => p.holder === first)!;
    const standby = processes.find((p) => p.holder !== first)!;
    await dead.store.close();
    const died = Date.now();
    for (let n = 20; n < 40; n++) await standby.store.append(`doc-${n}`, [event(n)], 0);
    await until(() => published.size === 40);
    const tookOverMs = Date.now() - died;
    assert.equal(publishers.at(-1), standby.holder);
    assert.ok(tookOverMs < TTL_MS * 5, `took over after ${tookOverMs} ms`);
    for (let n = 0; n < 40; n++) assert.ok((published.get(n) ?? 0) >= 1, `event ${n} published`);

    await Promise.all(processes.map((p) => p.relay.stop()));
    await standby.store.close();
    await consumer.stop();
    await bus.close();
  });
});
