/** loadAggregate's fold cache against the real SQLite event store: folds only what is new, never stale. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  createSqliteEventStore,
  type EventStore,
  type NewEvent,
  StoreUnavailable,
} from '@docflow/eventstore';
import { type Aggregate, executeCommand, loadAggregate } from './aggregate';

type Added = { type: 'Added'; data: { n: number } };
interface Sum {
  total: number;
  items: number[];
}

/** Sums the numbers of its events, counting how many events it was asked to parse. */
function summing() {
  let parsed = 0;
  const aggregate: Aggregate<Sum, Added> = {
    initial: { total: 0, items: [] },
    evolve: (state, event) => ({ total: state.total + event.data.n, items: [...state.items, event.data.n] }),
    parse(type, data) {
      parsed++;
      return { type: type as 'Added', data: data as { n: number } };
    },
  };
  return { aggregate, parsed: () => parsed };
}

const added = (n: number): NewEvent => ({
  id: randomUUID(),
  type: 'Added',
  version: 1,
  data: { n },
  metadata: { correlationId: 'c', timestamp: new Date().toISOString() },
});

describe('loadAggregate fold cache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-fold-'));
  const file = join(dir, 'events.db');
  const store: EventStore = createSqliteEventStore({ file });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a second read parses only the events appended since, also by another writer', async () => {
    const { aggregate, parsed } = summing();
    await store.append('sum-a', [added(1), added(2)], 0);
    assert.deepEqual(await loadAggregate(store, 'sum-a', aggregate), {
      state: { total: 3, items: [1, 2] },
      revision: 2,
    });
    assert.equal(parsed(), 2);
    assert.equal((await loadAggregate(store, 'sum-a', aggregate)).state.total, 3);
    assert.equal(parsed(), 2, 'an unchanged stream is not folded again');

    // Another process appends to the same file: the next read still sees it.
    const other = createSqliteEventStore({ file });
    await other.append('sum-a', [added(10)], 2);
    await other.close();
    const loaded = await loadAggregate(store, 'sum-a', aggregate);
    assert.deepEqual(loaded, { state: { total: 13, items: [1, 2, 10] }, revision: 3 });
    assert.equal(parsed(), 3, 'only the new event is parsed');
  });

  it('a read up to an older revision folds from the start and leaves the newest fold cached', async () => {
    const { aggregate, parsed } = summing();
    await store.append('sum-b', [added(1), added(2), added(3)], 0);
    await loadAggregate(store, 'sum-b', aggregate);
    assert.deepEqual(await loadAggregate(store, 'sum-b', aggregate, 2), {
      state: { total: 3, items: [1, 2] },
      revision: 2,
    });
    assert.deepEqual(await loadAggregate(store, 'sum-b', aggregate, 5), {
      state: { total: 6, items: [1, 2, 3] },
      revision: 3,
    });
    const before = parsed();
    assert.equal((await loadAggregate(store, 'sum-b', aggregate)).state.total, 6);
    assert.equal(parsed(), before);
  });

  it('cached states are frozen, so a caller cannot change what the next read returns', async () => {
    const { aggregate } = summing();
    await store.append('sum-c', [added(4)], 0);
    const { state } = await loadAggregate(store, 'sum-c', aggregate);
    assert.throws(() => state.items.push(5), TypeError);
    assert.deepEqual((await loadAggregate(store, 'sum-c', aggregate)).state.items, [4]);
  });

  it('commands decide on the fresh state after their own and others\u2019 appends', async () => {
    const { aggregate } = summing();
    const decide = (state: Sum): Added[] => [{ type: 'Added', data: { n: state.total + 1 } }];
    const metadata = { correlationId: 'c', timestamp: new Date().toISOString() };
    await executeCommand(store, 'sum-d', aggregate, decide, metadata); // 1
    await executeCommand(store, 'sum-d', aggregate, decide, metadata); // 1 + 2
    await store.append('sum-d', [added(100)], 2);
    const result = await executeCommand(store, 'sum-d', aggregate, decide, metadata); // 103 + 104
    assert.deepEqual(result.state.items, [1, 2, 100, 104]);
    assert.equal(result.revision, 4);
  });

  it('sends an append whose answer was lost again with the same ids, and it is stored once', async () => {
    const { aggregate } = summing();
    let lost = 0;
    // The engine writes the first append but its answer never arrives.
    const flaky: EventStore = {
      ...store,
      async append(streamId, events, expected) {
        const result = await store.append(streamId, events, expected);
        if (lost++ === 0) throw new StoreUnavailable('append: no answer from the event store within 5000 ms');
        return result;
      },
    };
    const decide = (): Added[] => [{ type: 'Added', data: { n: 7 } }];
    const metadata = { correlationId: 'c', timestamp: new Date().toISOString() };
    const result = await executeCommand(flaky, 'sum-lost', aggregate, decide, metadata);
    const stored = await store.readStream('sum-lost');
    assert.deepEqual(
      stored.map((event) => event.id),
      result.ids,
    );
    assert.equal(result.revision, 1);
    assert.equal(lost, 2);
  });

  it('takes the revision from the store, not from counting, when the start of a stream is gone', async () => {
    const { aggregate } = summing();
    await store.append('sum-cut', [1, 2, 3, 4, 5].map(added), 0);
    // As KurrentDB reads a stream truncated before revision 3.
    const truncated: EventStore = {
      ...store,
      readStream: async (streamId, options) =>
        (await store.readStream(streamId, options)).filter((event) => event.revision >= 3),
    };
    assert.deepEqual(await loadAggregate(truncated, 'sum-cut', aggregate), {
      state: { total: 12, items: [3, 4, 5] },
      revision: 5,
    });
  });
});
