/**
 * The one append path's retry policy by kind of failure, and the stamping store wrapper, against the
 * real SQLite event store.
 */
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
  WrongExpectedRevision,
} from '@docflow/eventstore';
import { type Aggregate, executeCommand, recordEvents } from './aggregate';
import { stampEventStore } from './event-store-stamping';

type Added = { type: 'Added'; data: { n: number } };
const counting: Aggregate<number, Added> = {
  initial: 0,
  evolve: (count) => count + 1,
  parse: (type, data) => ({ type: type as 'Added', data: data as { n: number } }),
};
const metadata = { correlationId: 'c', timestamp: new Date().toISOString() };
const add = (n: number): Added[] => [{ type: 'Added', data: { n } }];
const added = (n: number): NewEvent => ({ id: randomUUID(), version: 1, metadata, ...add(n)[0]! });

describe('the command executor', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-policy-'));
  const store: EventStore = createSqliteEventStore({ file: join(dir, 'events.db') });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** `store` with every append first passed to `before` (which may write or throw). */
  const intercepted = (before: (streamId: string) => Promise<void> | void): EventStore => ({
    ...store,
    async append(streamId, events, expected) {
      await before(streamId);
      return store.append(streamId, events, expected);
    },
  });

  it('decides again on a conflict, at most maxAttempts times, then lets the conflict out', async () => {
    let decisions = 0;
    // Another writer gets in before every append of the command.
    const racing = intercepted((streamId) => store.append(streamId, [added(0)], 'any').then(() => {}));
    const decide = (count: number) => {
      decisions++;
      return add(count);
    };
    await assert.rejects(
      executeCommand(racing, 'policy-conflict', counting, decide, metadata, { maxAttempts: 2 }),
      WrongExpectedRevision,
    );
    assert.equal(decisions, 2);
    await assert.rejects(
      executeCommand(racing, 'policy-conflict-once', counting, decide, metadata, { maxAttempts: 1 }),
      WrongExpectedRevision,
    );
    assert.equal(decisions, 3);
  });

  it('sends an unanswered append again a bounded number of times, then lets the failure out', async () => {
    let sends = 0;
    const silent = intercepted(() => {
      sends++;
      throw new StoreUnavailable('append: no answer');
    });
    await assert.rejects(
      executeCommand(silent, 'policy-down', counting, () => add(1), metadata),
      StoreUnavailable,
    );
    assert.equal(sends, 3);
    assert.deepEqual(await store.readStream('policy-down'), []);
  });

  it('does not retry any other failure', async () => {
    let sends = 0;
    const broken = intercepted(() => {
      sends++;
      throw new RangeError('refused');
    });
    await assert.rejects(
      executeCommand(broken, 'policy-other', counting, () => add(1), metadata),
      RangeError,
    );
    assert.equal(sends, 1);
  });

  it('records events that depend on no state after what the stream holds', async () => {
    await store.append('policy-record', [added(1)], 0);
    const result = await recordEvents(store, 'policy-record', add(2), metadata);
    assert.equal(result.revision, 2);
    const stored = await store.readStream('policy-record');
    assert.deepEqual(
      stored.map((e) => e.data),
      [{ n: 1 }, { n: 2 }],
    );
  });

  it('stamps every event appended to a stream of the prefix from the event before it, and no other', async () => {
    const chained = stampEventStore(store, 'chain-', (_event, revision, previous) => ({
      ...metadata,
      link: `${String(previous?.link ?? 'start')}>${revision}`,
    }));
    await executeCommand(chained, 'chain-a', counting, () => add(1), metadata);
    await chained.append('chain-a', [added(2), added(3)], 1);
    await chained.append('other-a', [added(4)], 0);
    const links = (await store.readStream('chain-a')).map((e) => e.metadata.link);
    assert.deepEqual(links, ['start>1', 'start>1>2', 'start>1>2>3']);
    assert.equal((await store.readStream('other-a'))[0]?.metadata.link, undefined);
    await assert.rejects(chained.append('chain-a', [added(5)], 'any'), RangeError);
  });
});
