/** The relay against the real embedded adapters: at-least-once, resumes from its checkpoint. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createInProcessBus, type DeliveredMessage } from '@docflow/bus';
import { eventsOfAppendMessage } from '@docflow/contracts';
import { createSqliteEventStore, type NewEvent } from '@docflow/eventstore';
import { markAppends } from './event-store-append-marks';
import { applyOnce, checkpointStore, openLocalDb } from './local-db';
import { createLogger } from './logger';
import { startRelay } from './relay';

const log = createLogger('test', 'silent');
const event = (type: string): NewEvent => ({
  id: randomUUID(),
  type,
  version: 1,
  data: { type },
  metadata: { correlationId: 'c', timestamp: new Date().toISOString() },
});

async function until(cond: () => boolean, timeoutMs = 5000) {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('relay', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-relay-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('publishes every routed event once per run, in order, and resumes after its checkpoint', async () => {
    const store = createSqliteEventStore({ file: join(dir, 'events.db') });
    const db = openLocalDb(join(dir, 'local.db'));
    const bus = createInProcessBus();
    const seen: DeliveredMessage[] = [];
    const consumer = await bus.subscribe({ groupId: 'g', topics: ['t'] }, async (m) => {
      seen.push(m);
    });
    const options = {
      name: 'r',
      store,
      bus,
      checkpoints: checkpointStore(db),
      streamPrefixes: ['doc-'],
      route: (e: { type: string; streamId: string }) =>
        e.type === 'Private' ? undefined : { topic: 't', key: e.streamId },
      log,
    };
    await store.append('doc-1', [event('A'), event('Private'), event('B')], 0);
    await store.append('other-1', [event('X')], 0);
    const relay = startRelay(options);
    await until(() => seen.length === 2);
    await relay.stop();
    assert.deepEqual(
      seen.map((m) => m.value.type),
      ['A', 'B'],
    );
    assert.equal(seen[0]?.key, 'doc-1');

    await store.append('doc-1', [event('C')], 3);
    const again = startRelay(options);
    await until(() => seen.length === 3);
    await new Promise((r) => setTimeout(r, 100));
    await again.stop();
    assert.deepEqual(
      seen.map((m) => m.value.type),
      ['A', 'B', 'C'],
    );
    await consumer.stop();
    await bus.close();
    await store.close();
    db.close();
  });

  it('publishes on while a consumer is stuck, and saves no checkpoint past what it has not handled', async () => {
    const store = createSqliteEventStore({ file: join(dir, 'stuck-events.db') });
    const db = openLocalDb(join(dir, 'stuck-local.db'));
    const bus = createInProcessBus();
    const checkpoints = checkpointStore(db);
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const stuck: string[] = [];
    const other: string[] = [];
    await bus.subscribe({ groupId: 'stuck', topics: ['t'] }, async (m) => {
      await released;
      stuck.push(m.id);
    });
    await bus.subscribe({ groupId: 'other', topics: ['t'] }, async (m) => {
      other.push(m.id);
    });
    for (const doc of ['doc-1', 'doc-2', 'doc-3']) await store.append(doc, [event('A')], 0);
    const relay = startRelay({
      name: 'stuck',
      store,
      bus,
      checkpoints,
      streamPrefixes: ['doc-'],
      route: (e) => ({ topic: 't', key: e.streamId }),
      log,
    });
    await until(() => other.length === 3);
    assert.equal(checkpoints.load('stuck'), undefined, 'a checkpoint past an event a group still owes');
    release();
    const head = await store.headPosition({ streamPrefixes: ['doc-'] });
    await until(() => checkpoints.load('stuck') === head);
    assert.equal(stuck.length, 3);
    await relay.stop();
    await bus.close();
    await store.close();
    db.close();
  });

  it('with wholeAppends, publishes each marked append as one message, and an unmarked event as an append of one', async () => {
    const raw = createSqliteEventStore({ file: join(dir, 'whole-events.db') });
    const store = markAppends(raw, 'doc-');
    const db = openLocalDb(join(dir, 'whole-local.db'));
    const bus = createInProcessBus();
    const checkpoints = checkpointStore(db);
    const seen: DeliveredMessage[] = [];
    await bus.subscribe({ groupId: 'g', topics: ['t'] }, async (m) => {
      seen.push(m);
    });
    const command = [event('A'), event('B'), event('C')];
    await store.append('doc-1', command, 0);
    await raw.append('doc-1', [event('Unmarked')], 3);
    await store.append('doc-2', [event('D')], 0);
    const relay = startRelay({
      name: 'whole',
      store: raw,
      bus,
      checkpoints,
      streamPrefixes: ['doc-'],
      route: (e) => ({ topic: 't', key: e.streamId }),
      log,
      wholeAppends: true,
    });
    const head = await raw.headPosition({ streamPrefixes: ['doc-'] });
    await until(() => checkpoints.load('whole') === head);
    await relay.stop();
    const messages = seen.map((m) => ({
      id: m.id,
      key: m.key,
      types: eventsOfAppendMessage(m.value).map((e) => e.type),
    }));
    assert.deepEqual(messages, [
      { id: command[2]!.id, key: 'doc-1', types: ['A', 'B', 'C'] },
      { id: messages[1]?.id, key: 'doc-1', types: ['Unmarked'] },
      { id: messages[2]?.id, key: 'doc-2', types: ['D'] },
    ]);
    assert.deepEqual(
      eventsOfAppendMessage(seen[0]!.value).map((e) => [e.revision, e.metadata.append]),
      [
        [1, { index: 0, count: 3 }],
        [2, { index: 1, count: 3 }],
        [3, { index: 2, count: 3 }],
      ],
    );
    await bus.close();
    await raw.close();
    db.close();
  });

  it('reads a message of an earlier release, one event bare, as an append of one', () => {
    const bare = {
      id: randomUUID(),
      type: 'A',
      version: 1,
      streamId: 'doc-1',
      revision: 1,
      recordedAt: new Date().toISOString(),
      data: {},
      metadata: { correlationId: 'c', timestamp: new Date().toISOString() },
    };
    assert.deepEqual(eventsOfAppendMessage(bare), [bare]);
    assert.throws(() => eventsOfAppendMessage({ events: [] }));
  });

  it('applyOnce applies a message id once, however often it is delivered', () => {
    const db = openLocalDb(':memory:');
    let count = 0;
    assert.equal(
      applyOnce(db, 'c', 'm1', () => count++),
      true,
    );
    assert.equal(
      applyOnce(db, 'c', 'm1', () => count++),
      false,
    );
    assert.equal(
      applyOnce(db, 'other', 'm1', () => count++),
      true,
    );
    assert.equal(count, 2);
    db.close();
  });

  it('applyOnce rolls back the mark when the change fails, so the retry applies it', () => {
    const db = openLocalDb(':memory:');
    assert.throws(() =>
      applyOnce(db, 'c', 'm1', () => {
        throw new Error('boom');
      }),
    );
    let applied = false;
    assert.equal(
      applyOnce(db, 'c', 'm1', () => {
        applied = true;
      }),
      true,
    );
    assert.ok(applied);
    db.close();
  });
});
