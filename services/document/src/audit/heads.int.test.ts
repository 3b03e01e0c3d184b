/**
 * The heads kept in local.db: what the subscription delivers lands there with its position, a restart
 * resumes after it (only the events appended since are delivered), and the bucket digests kept there
 * give the root over every head.
 */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { bucketedRoot, type StreamHead } from '@docflow/audit';
import { createSqliteEventStore, type EventStore } from '@docflow/eventstore';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { metricsRegistry } from '@docflow/kit/http';
import { followStreamHeads, type StreamHeads } from './heads';

const hash = (text: string) => createHash('sha256').update(text).digest('hex');
const event = (streamId: string, revision: number) => ({
  id: randomUUID(),
  type: 'Test',
  version: 1,
  data: {},
  metadata: {
    correlationId: randomUUID(),
    timestamp: new Date().toISOString(),
    hash: hash(`${streamId}/${revision}`),
  },
});
const head = (streamId: string, revision: number): StreamHead => ({
  streamId,
  revision,
  hash: hash(`${streamId}/${revision}`),
});

/** The store, counting the events its subscriptions deliver. */
function counting(store: EventStore): { store: EventStore; delivered: () => number } {
  let delivered = 0;
  const wrapped: EventStore = Object.create(store);
  wrapped.subscribeAll = (options, handler) =>
    store.subscribeAll(options, async (e) => {
      delivered++;
      await handler(e);
    });
  return { store: wrapped, delivered: () => delivered };
}

/** The audit heads' backlog as /metrics would report it; undefined when not tracked. */
async function behind(): Promise<number | undefined> {
  const gauge = metricsRegistry.getSingleMetric('docflow_audit_heads_behind_events');
  return (await gauge?.get())?.values.find((v) => v.labels.service === 'document')?.value;
}

async function caughtUp(heads: StreamHeads) {
  for (let i = 0; i < 500 && !(await heads.caughtUp()); i++) await sleep(20);
  assert.ok(await heads.caughtUp(), 'caught up');
}

describe('audit heads in local.db', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'docflow-heads-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('resumes after a restart from its stored position; the root covers every head', async () => {
    const store = createSqliteEventStore({ file: join(dir, 'events.db'), pollIntervalMs: 20 });
    const localFile = join(dir, 'local.db');
    try {
      await store.append('docForm-a', [event('docForm-a', 1), event('docForm-a', 2)], 0);
      await store.append('docForm-b', [event('docForm-b', 1)], 0);
      await store.append('form-x', [event('form-x', 1)], 0);

      let db = openLocalDb(localFile);
      const first = counting(store);
      let heads = followStreamHeads(first.store, db);
      heads.start();
      await caughtUp(heads);
      assert.equal(first.delivered(), 3);
      assert.equal(heads.changedCount(), 2);
      const all = [head('docForm-a', 2), head('docForm-b', 1)];
      assert.deepEqual(heads.root(), { root: bucketedRoot(all), streams: 2 });
      assert.deepEqual(
        [...heads.changed(1)].flat().sort((a, b) => (a.streamId < b.streamId ? -1 : 1)),
        all,
      );
      heads.anchored('0b4a4d8e-0000-4000-8000-000000000001');
      assert.equal(heads.changedCount(), 0);
      await heads.stop();
      db.close();

      await store.append('docForm-b', [event('docForm-b', 2)], 1);
      await store.append('docForm-c', [event('docForm-c', 1)], 0);
      db = openLocalDb(localFile);
      const second = counting(store);
      heads = followStreamHeads(second.store, db);
      assert.equal(heads.previousCheckpointId(), '0b4a4d8e-0000-4000-8000-000000000001');
      heads.start();
      await caughtUp(heads);
      await heads.stop();
      // Only what was appended since the stored position is delivered again.
      assert.equal(second.delivered(), 2);
      assert.deepEqual(
        [...heads.changed(10)]
          .flat()
          .map((h) => h.streamId)
          .sort(),
        ['docForm-b', 'docForm-c'],
      );
      const now = [head('docForm-a', 2), head('docForm-b', 2), head('docForm-c', 1)];
      assert.deepEqual(heads.root(), { root: bucketedRoot(now), streams: 3 });
      assert.deepEqual(heads.streamIds().sort(), ['docForm-a', 'docForm-b', 'docForm-c']);
      db.close();
    } finally {
      await store.close();
    }
  });

  it('holds the heads still while a checkpoint is taken', async () => {
    const store = createSqliteEventStore({ file: join(dir, 'events.db'), pollIntervalMs: 20 });
    const db = openLocalDb(join(dir, 'local.db'));
    const heads = followStreamHeads(store, db);
    try {
      heads.start();
      await store.append('docForm-a', [event('docForm-a', 1)], 0);
      await caughtUp(heads);
      let release!: () => void;
      const holding = heads.holding(() => new Promise<void>((r) => (release = r)));
      await store.append('docForm-b', [event('docForm-b', 1)], 0);
      await sleep(200);
      assert.equal(heads.changedCount(), 1, 'nothing applied while held');
      release();
      await holding;
      await caughtUp(heads);
      assert.equal(heads.changedCount(), 2);
    } finally {
      await heads.stop();
      db.close();
      await store.close();
    }
  });

  it('reports how many stored events the heads have yet to apply, from their start until their stop', async () => {
    const store = createSqliteEventStore({ file: join(dir, 'events.db'), pollIntervalMs: 20 });
    const db = openLocalDb(join(dir, 'local.db'));
    const heads = followStreamHeads(store, db);
    try {
      // Appended while nothing followed them, as in a directory filled offline.
      await store.append('docForm-a', [event('docForm-a', 1), event('docForm-a', 2)], 0);
      await store.append('docForm-b', [event('docForm-b', 1)], 0);
      assert.equal(await behind(), undefined, 'not reported before the start');
      heads.start();
      let release!: () => void;
      const holding = heads.holding(() => new Promise<void>((r) => (release = r)));
      assert.equal(await behind(), 3, 'the backlog, while nothing is applied');
      release();
      await holding;
      await caughtUp(heads);
      assert.equal(await behind(), 0);
    } finally {
      await heads.stop();
      db.close();
      await store.close();
    }
    assert.equal(await behind(), undefined, 'no longer reported after the stop');
  });
});
