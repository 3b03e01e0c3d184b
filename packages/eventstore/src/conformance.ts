/** Conformance suite of the event store port: every adapter's test file runs it against a real engine. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import {
  AppendTooLarge,
  type EventHandler,
  type EventStore,
  ForeignEvent,
  type ForeignEventInfo,
  MAX_APPEND_BYTES,
  type NewEvent,
  type RecordedEvent,
  type SubscribeAllOptions,
  type Subscription,
  WrongExpectedRevision,
} from './port';

export interface EventStoreContractOptions {
  /** Why the adapter cannot be exercised here; every test then reports as skipped with this reason. */
  skip?: string;
}

/**
 * What other writers and operators do to the engine behind the port's back, done with the engine's
 * own client, so the suite can hold the adapter to what the port promises when they have.
 */
export interface EngineBackdoor {
  /** Appends to the end of `streamId` an event that is not JSON (as another client might). */
  appendForeign(streamId: string): Promise<void>;
  /** Removes the events before the 1-based `revision` from the start of the stream (KurrentDB `$tb`). */
  truncateBefore(streamId: string, revision: number): Promise<void>;
  /** Deletes the stream (KurrentDB's soft delete). */
  deleteStream(streamId: string): Promise<void>;
  /**
   * Starts appending `event` as the first of `streamId` in a transaction of its own, and commits it
   * only when `commit()` is called: the store's appends in between may commit first. An engine that
   * numbers events when they commit (SQLite, KurrentDB) writes the event in `commit()`.
   */
  beginAppend(streamId: string, event: NewEvent): Promise<{ commit(): Promise<void> }>;
}

export interface ContractStore {
  store: EventStore;
  cleanup: () => Promise<void>;
  backdoor: EngineBackdoor;
}

/** How long to wait for a subscription to deliver what the test expects. */
const DELIVERY_TIMEOUT_MS = 15_000;
/** How long to keep listening for deliveries that must not happen. */
const SETTLE_MS = 300;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * Registers the port's contract tests for one adapter. `makeStore` runs once before the tests; every
 * test uses its own randomly named streams, so the suite can share a server with other runs.
 *
 * @example
 * describeEventStoreContract('sqlite', async () => {
 *   const store = createSqliteEventStore({ file });
 *   return { store, cleanup: () => store.close() };
 * });
 */
export function describeEventStoreContract(
  adapterName: string,
  makeStore: () => Promise<ContractStore>,
  options: EventStoreContractOptions = {},
): void {
  const { skip } = options;

  describe(`event store contract: ${adapterName}`, () => {
    let store: EventStore;
    let backdoor: EngineBackdoor;
    let cleanup: (() => Promise<void>) | undefined;
    const subscriptions: Subscription[] = [];

    // A skipped suite must not start an engine.
    if (!skip) {
      before(async () => {
        ({ store, cleanup, backdoor } = await makeStore());
      });
      after(async () => {
        await Promise.all(subscriptions.map((subscription) => subscription.stop()));
        await cleanup?.();
      });
    }

    function subscribe(options: SubscribeAllOptions, handler: EventHandler): Subscription {
      const subscription = store.subscribeAll(options, handler);
      subscriptions.push(subscription);
      return subscription;
    }

    /** Subscribes and records what was handled, in delivery order. */
    function collect(options: SubscribeAllOptions): { events: RecordedEvent[]; subscription: Subscription } {
      const events: RecordedEvent[] = [];
      const subscription = subscribe(options, async (event) => {
        events.push(event);
      });
      return { events, subscription };
    }

    it('appends to a new stream with expected revision 0', { skip }, async () => {
      const streamId = uniqueName('contract-');
      const events = [newEvent('DocumentCreated'), newEvent('FieldChanged')];
      const startedAt = Date.now();

      const result = await store.append(streamId, events, 0);

      assert.equal(result.revision, 2);
      const read = await store.readStream(streamId);
      assert.deepEqual(
        read.map((event) => [event.streamId, event.revision, event.id, event.type]),
        [
          [streamId, 1, events[0]!.id, 'DocumentCreated'],
          [streamId, 2, events[1]!.id, 'FieldChanged'],
        ],
      );
      assert.equal(read[1]!.position, result.position);
      assert.ok(read[0]!.position < read[1]!.position, 'positions compare in store order as strings');
      for (const event of read) {
        assert.match(event.recordedAt, ISO_UTC);
        assert.ok(Math.abs(Date.parse(event.recordedAt) - startedAt) < 5 * 60_000, 'recordedAt is about now');
      }
    });

    it('appends with the correct expected revision', { skip }, async () => {
      const streamId = uniqueName('contract-');
      await store.append(streamId, [newEvent()], 0);
      const second = await store.append(streamId, [newEvent(), newEvent()], 1);
      const third = await store.append(streamId, [newEvent()], 3);

      assert.equal(second.revision, 3);
      assert.equal(third.revision, 4);
      assert.ok(second.position < third.position);
      assert.deepEqual(
        (await store.readStream(streamId)).map((event) => event.revision),
        [1, 2, 3, 4],
      );
    });

    it('rejects a stale or early expected revision with WrongExpectedRevision and writes nothing', {
      skip,
    }, async () => {
      const streamId = uniqueName('contract-');
      const written = [newEvent(), newEvent()];
      await store.append(streamId, written, 0);

      for (const expected of [0, 1, 3]) {
        await assert.rejects(store.append(streamId, [newEvent()], expected), (error) => {
          assert.ok(error instanceof WrongExpectedRevision, `expected ${expected}: ${String(error)}`);
          assert.equal(error.streamId, streamId);
          assert.equal(error.expected, expected);
          assert.equal(error.actual, 2);
          return true;
        });
      }
      await assert.rejects(store.append(uniqueName('contract-'), [newEvent()], 1), WrongExpectedRevision);

      assert.deepEqual(
        (await store.readStream(streamId)).map((event) => event.id),
        written.map((event) => event.id),
      );
    });

    it("appends with 'any' whatever the stream holds", { skip }, async () => {
      const streamId = uniqueName('contract-');
      assert.equal((await store.append(streamId, [newEvent()], 'any')).revision, 1);
      assert.equal((await store.append(streamId, [newEvent(), newEvent()], 'any')).revision, 3);
      assert.equal((await store.readStream(streamId)).length, 3);
    });

    it('rejects an event id that is not a UUID with RangeError and writes nothing', { skip }, async () => {
      const streamId = uniqueName('contract-');
      for (const id of ['not-a-uuid', '', randomUUID().slice(1), `${randomUUID()}x`]) {
        await assert.rejects(store.append(streamId, [newEvent(), { ...newEvent(), id }], 0), RangeError, id);
      }
      assert.deepEqual(await store.readStream(streamId), []);
    });

    it('refuses an append over MAX_APPEND_BYTES with AppendTooLarge and writes nothing', {
      skip,
    }, async () => {
      const streamId = uniqueName('contract-');
      const half = 'x'.repeat(MAX_APPEND_BYTES / 2);
      await assert.rejects(
        store.append(streamId, [newEvent('Big', { text: half }), newEvent('Big', { text: half })], 0),
        (error) => {
          assert.ok(error instanceof AppendTooLarge, String(error));
          assert.equal(error.maxBytes, MAX_APPEND_BYTES);
          return true;
        },
      );
      assert.deepEqual(await store.readStream(streamId), []);
      // Just under the limit is stored whole (the engine's own limit is above the port's).
      const fits = newEvent('Big', { text: 'y'.repeat(MAX_APPEND_BYTES - 4096) });
      assert.equal((await store.append(streamId, [fits], 0)).revision, 1);
      assert.equal((await store.readStream(streamId))[0]!.data.text, fits.data.text);
    });

    it('answers a repeated append (same ids, same expected revision) with the first result, storing it once', {
      skip,
    }, async () => {
      const streamId = uniqueName('contract-');
      await store.append(streamId, [newEvent()], 0);
      const events = [newEvent('Retried'), newEvent('Retried')];
      const first = await store.append(streamId, events, 1);
      // The caller saw StoreUnavailable and cannot tell whether the first one was written.
      const again = await store.append(streamId, events, 1);
      assert.deepEqual(again, first);
      const anyAgain = await store.append(streamId, events, 'any');
      assert.deepEqual(anyAgain, first);
      const read = await store.readStream(streamId);
      assert.deepEqual(
        read.map((event) => [event.revision, event.type]),
        [
          [1, 'ThingHappened'],
          [2, 'Retried'],
          [3, 'Retried'],
        ],
      );
      assert.equal((await store.append(streamId, [newEvent()], 3)).revision, 4);
    });

    it('reports a foreign event to the subscription, skips it and goes on; reading its stream fails', {
      skip,
    }, async () => {
      const prefix = `${uniqueName('foreign-')}-`;
      const streamId = `${prefix}s`;
      const before = newEvent();
      await store.append(streamId, [before], 0);
      await backdoor.appendForeign(streamId);
      const after = newEvent();
      await store.append(streamId, [after], 2);

      const foreign: ForeignEventInfo[] = [];
      const errors: unknown[] = [];
      const { events } = collect({
        streamPrefixes: [prefix],
        onForeignEvent: (info) => foreign.push(info),
        onSubscriptionError: (error) => errors.push(error),
      });
      await waitFor(() => events.length >= 2, 'the events around the foreign one');
      await delay(SETTLE_MS);

      assert.deepEqual(
        events.map((event) => [event.id, event.revision]),
        [
          [before.id, 1],
          [after.id, 3],
        ],
      );
      assert.equal(foreign.length, 1);
      assert.equal(foreign[0]!.streamId, streamId);
      assert.equal(foreign[0]!.revision, 2);
      assert.ok(foreign[0]!.position > events[0]!.position && foreign[0]!.position < events[1]!.position);
      assert.deepEqual(errors, [], 'a foreign event is not a subscription failure');
      await assert.rejects(store.readStream(streamId), ForeignEvent);
      assert.deepEqual(
        (await store.readStream(streamId, { fromRevision: 3 })).map((event) => event.id),
        [after.id],
      );
    });

    it('numbers events by the store, not by counting, after the start of a stream was truncated', {
      skip,
    }, async () => {
      const streamId = uniqueName('contract-');
      const events = Array.from({ length: 5 }, (_, i) => newEvent('Numbered', { n: i + 1 }));
      await store.append(streamId, events, 0);
      await backdoor.truncateBefore(streamId, 3);

      const revisions = async (options: { fromRevision?: number; maxCount?: number } = {}) =>
        (await store.readStream(streamId, options)).map((event) => [event.revision, event.data.n]);
      assert.deepEqual(await revisions(), [
        [3, 3],
        [4, 4],
        [5, 5],
      ]);
      assert.deepEqual(await revisions({ fromRevision: 4 }), [
        [4, 4],
        [5, 5],
      ]);
      await assert.rejects(store.append(streamId, [newEvent()], 3), (error) => {
        assert.ok(error instanceof WrongExpectedRevision, String(error));
        assert.equal(error.actual, 5);
        return true;
      });
      assert.equal((await store.append(streamId, [newEvent()], 5)).revision, 6);
    });

    it('reads a deleted stream as an empty array', { skip }, async () => {
      const streamId = uniqueName('contract-');
      await store.append(streamId, [newEvent(), newEvent()], 0);
      await backdoor.deleteStream(streamId);
      assert.deepEqual(await store.readStream(streamId), []);
      assert.deepEqual(await store.readStream(streamId, { fromRevision: 2 }), []);
    });

    it('rejects an append of no events', { skip }, async () => {
      const streamId = uniqueName('contract-');
      await assert.rejects(store.append(streamId, [], 0), RangeError);
      assert.deepEqual(await store.readStream(streamId), []);
    });

    it('lets exactly one of two concurrent appends with the same expected revision win', {
      skip,
    }, async () => {
      const streamId = uniqueName('contract-');
      await store.append(streamId, [newEvent()], 0);
      const contenders = [newEvent('A'), newEvent('B')];

      const outcomes = await Promise.allSettled(
        contenders.map((event) => store.append(streamId, [event], 1)),
      );

      const winners = outcomes.flatMap((outcome, i) =>
        outcome.status === 'fulfilled' ? [contenders[i]!] : [],
      );
      const losers = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
      assert.equal(winners.length, 1);
      assert.equal(losers.length, 1);
      assert.ok(losers[0] instanceof WrongExpectedRevision, String(losers[0]));
      const read = await store.readStream(streamId);
      assert.deepEqual(
        read.map((event) => event.id),
        [read[0]!.id, winners[0]!.id],
      );
    });

    it('appends made together stand or fall alone: a stale one fails, the others are stored', {
      skip,
    }, async () => {
      const streams = Array.from({ length: 4 }, () => uniqueName('contract-'));
      await store.append(streams[2]!, [newEvent()], 0);
      const outcomes = await Promise.allSettled(
        streams.map((streamId) => store.append(streamId, [newEvent('Together')], 0)),
      );
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
      );
      assert.ok((outcomes[2] as PromiseRejectedResult).reason instanceof WrongExpectedRevision);
      for (const [i, streamId] of streams.entries()) {
        const types = (await store.readStream(streamId)).map((e) => e.type);
        assert.deepEqual(types, i === 2 ? ['ThingHappened'] : ['Together']);
      }
    });

    it('reads a stream in order from a revision, at most maxCount events', { skip }, async () => {
      const streamId = uniqueName('contract-');
      const events = Array.from({ length: 5 }, (_, i) => newEvent('Numbered', { n: i + 1 }));
      await store.append(streamId, events, 0);

      const revisions = async (options: { fromRevision?: number; maxCount?: number }) =>
        (await store.readStream(streamId, options)).map((event) => [event.revision, event.data.n]);

      assert.deepEqual(
        await revisions({}),
        [1, 2, 3, 4, 5].map((n) => [n, n]),
      );
      assert.deepEqual(await revisions({ fromRevision: 2, maxCount: 2 }), [
        [2, 2],
        [3, 3],
      ]);
      assert.deepEqual(await revisions({ fromRevision: 4 }), [
        [4, 4],
        [5, 5],
      ]);
      assert.deepEqual(await revisions({ maxCount: 1 }), [[1, 1]]);
      assert.deepEqual(await revisions({ fromRevision: 6 }), []);
      assert.deepEqual(await revisions({ maxCount: 0 }), []);
    });

    it('reads a missing stream as an empty array', { skip }, async () => {
      assert.deepEqual(await store.readStream(uniqueName('contract-missing-')), []);
      assert.deepEqual(
        await store.readStream(uniqueName('contract-missing-'), { fromRevision: 3, maxCount: 2 }),
        [],
      );
    });

    it('round-trips type, version, data and metadata', { skip }, async () => {
      const streamId = uniqueName('contract-');
      const event: NewEvent = {
        id: randomUUID(),
        type: 'TaskAnswered',
        version: 3,
        data: {
          text: 'Grüße — 文書 ✓',
          count: 42,
          ratio: 0.25,
          flag: false,
          nothing: null,
          nested: { list: [1, 'two', { three: 3 }], empty: {} },
        },
        metadata: {
          correlationId: randomUUID(),
          causationId: randomUUID(),
          actor: 'usr-00000000-0000-0000-0000-000000000001',
          runAs: 'usr-00000000-0000-0000-0000-000000000002',
          timestamp: '2024-05-06T07:08:09.010Z',
          requestId: 'req-1',
          extra: { tags: ['a', 'b'] },
        },
      };
      await store.append(streamId, [event], 0);

      const [read] = await store.readStream(streamId);
      assert.ok(read);
      const { id, type, version, data, metadata } = read;
      assert.deepEqual({ id, type, version, data, metadata }, event);
    });

    it('rejects a position that this store did not produce', { skip }, () => {
      assert.throws(() => store.subscribeAll({ after: 'not-a-position' }, async () => {}), RangeError);
    });

    it('delivers past then live events in store order, filtered by stream prefix', { skip }, async () => {
      const prefix = uniqueName('sub-') + '-';
      const otherPrefix = uniqueName('sub-') + '-';
      const past: [string, NewEvent][] = [
        [`${prefix}a`, newEvent()],
        [`${prefix}b`, newEvent()],
        [`${otherPrefix}a`, newEvent()],
        [`${prefix}a`, newEvent()],
      ];
      for (const [streamId, event] of past) await store.append(streamId, [event], 'any');

      const mine = collect({ streamPrefixes: [prefix] });
      const both = collect({ streamPrefixes: [prefix, otherPrefix] });
      await waitFor(() => mine.events.length >= 3 && both.events.length >= 4, 'past events');

      const live: [string, NewEvent][] = [
        [`${prefix}b`, newEvent()],
        [`${otherPrefix}a`, newEvent()],
        [`${prefix}c`, newEvent()],
      ];
      for (const [streamId, event] of live) await store.append(streamId, [event], 'any');
      await waitFor(() => mine.events.length >= 5 && both.events.length >= 7, 'live events');
      await delay(SETTLE_MS);

      const all = [...past, ...live];
      assert.deepEqual(
        mine.events.map((event) => [event.streamId, event.id]),
        all
          .filter(([streamId]) => streamId.startsWith(prefix))
          .map(([streamId, event]) => [streamId, event.id]),
      );
      assert.deepEqual(
        both.events.map((event) => event.id),
        all.map(([, event]) => event.id),
      );
      assert.deepEqual(
        mine.events.map((event) => event.revision),
        [1, 1, 2, 2, 1],
      );
      assertAscendingPositions(both.events);
    });

    it('reports the head position of the streams with given prefixes', { skip }, async () => {
      const prefix = uniqueName('head-') + '-';
      const other = uniqueName('head-') + '-';
      assert.equal(await store.headPosition({ streamPrefixes: [prefix] }), undefined);
      const first = await store.append(`${prefix}a`, [newEvent()], 0);
      const second = await store.append(`${other}a`, [newEvent()], 0);
      assert.equal(await store.headPosition({ streamPrefixes: [prefix] }), first.position);
      assert.equal(await store.headPosition({ streamPrefixes: [prefix, other] }), second.position);
      const head = await store.headPosition();
      assert.ok(head !== undefined && head >= second.position);
    });

    it('counts the events after a position in streams with given prefixes, up to a limit', {
      skip,
    }, async () => {
      const prefix = uniqueName('count-') + '-';
      const other = uniqueName('count-') + '-';
      assert.equal(await store.countAfter({ streamPrefixes: [prefix], limit: 10 }), 0);
      const first = await store.append(`${prefix}a`, [newEvent(), newEvent()], 0);
      await store.append(`${other}a`, [newEvent()], 0);
      await store.append(`${prefix}b`, [newEvent(), newEvent()], 0);
      assert.equal(await store.countAfter({ streamPrefixes: [prefix], limit: 10 }), 4);
      assert.equal(await store.countAfter({ after: first.position, streamPrefixes: [prefix], limit: 10 }), 2);
      assert.equal(
        await store.countAfter({ after: first.position, streamPrefixes: [prefix, other], limit: 10 }),
        3,
      );
      assert.equal(await store.countAfter({ streamPrefixes: [prefix], limit: 3 }), 3);
    });

    it('resumes after a stored position without repeating or skipping', { skip }, async () => {
      const prefix = uniqueName('sub-') + '-';
      const events = [newEvent(), newEvent(), newEvent()];
      await store.append(`${prefix}s`, events, 0);

      const first = collect({ streamPrefixes: [prefix] });
      await waitFor(() => first.events.length >= 2, 'first two events');
      await first.subscription.stop();
      const checkpoint = first.events[1]!.position;

      const resumed = collect({ after: checkpoint, streamPrefixes: [prefix] });
      await waitFor(() => resumed.events.length >= 1, 'event after the checkpoint');
      const later = newEvent();
      await store.append(`${prefix}s`, [later], 3);
      await waitFor(() => resumed.events.length >= 2, 'live event after resuming');
      await delay(SETTLE_MS);

      assert.deepEqual(
        resumed.events.map((event) => event.id),
        [events[2]!.id, later.id],
      );
      assert.ok(resumed.events[0]!.position > checkpoint);
    });

    it('retries the same event when the handler throws, and never skips', { skip }, async () => {
      const prefix = uniqueName('sub-') + '-';
      const events = [newEvent(), newEvent(), newEvent()];
      await store.append(`${prefix}s`, events, 0);
      const calls: string[] = [];
      const handled: string[] = [];
      const failures: { id: string; attempt: number; message: string }[] = [];
      let failed = false;

      subscribe(
        {
          streamPrefixes: [prefix],
          onHandlerError: (error, event, attempt) =>
            failures.push({ id: event.id, attempt, message: (error as Error).message }),
        },
        async (event) => {
          calls.push(event.id);
          if (event.id === events[1]!.id && !failed) {
            failed = true;
            throw new Error('projection database hiccup');
          }
          handled.push(event.id);
        },
      );
      await waitFor(() => handled.length >= 3, 'all events handled');
      await delay(SETTLE_MS);

      const [a, b, c] = events.map((event) => event.id);
      assert.deepEqual(calls, [a, b, b, c]);
      assert.deepEqual(handled, [a, b, c]);
      assert.deepEqual(failures, [{ id: b, attempt: 1, message: 'projection database hiccup' }]);
    });

    it('stop() resolves only after the handler in hand has finished, and delivers nothing more', {
      skip,
    }, async () => {
      const prefix = uniqueName('sub-') + '-';
      await store.append(`${prefix}s`, [newEvent(), newEvent()], 0);
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let calls = 0;
      let finished = false;
      const subscription = subscribe({ streamPrefixes: [prefix] }, async () => {
        calls++;
        await gate;
        finished = true;
      });
      await waitFor(() => calls === 1, 'handler entered');

      let stopped = false;
      const stopping = subscription.stop().then(() => {
        stopped = true;
      });
      await delay(100);
      assert.equal(stopped, false, 'stop() must wait for the running handler');
      release();
      await stopping;
      assert.equal(finished, true);
      await delay(SETTLE_MS);
      assert.equal(calls, 1);
    });

    it('never skips an event whose append commits after that of a later-numbered one', {
      skip,
    }, async () => {
      const prefix = uniqueName('order-') + '-';
      const first = collect({ streamPrefixes: [prefix] });
      const early = newEvent('Early');
      const late = newEvent('Late');
      // The early append takes its place in the store first; the late one commits first.
      const held = await backdoor.beginAppend(`${prefix}early`, early);
      await store.append(`${prefix}late`, [late], 0);
      const also = collect({ streamPrefixes: [prefix] });
      await delay(SETTLE_MS); // time for a subscription to pass the late event, if it would
      await held.commit();
      await waitFor(() => first.events.length >= 2 && also.events.length >= 2, 'both events');
      await delay(SETTLE_MS);

      const order = first.events.map((event) => event.id);
      assert.deepEqual(new Set(order), new Set([early.id, late.id]));
      assert.equal(order.length, 2);
      assertAscendingPositions(first.events);
      assert.deepEqual(
        also.events.map((event) => event.id),
        order,
        'every subscription sees one order',
      );
      const resumed = collect({ after: first.events[0]!.position, streamPrefixes: [prefix] });
      await waitFor(() => resumed.events.length >= 1, 'the event after the first');
      await delay(SETTLE_MS);
      assert.deepEqual(
        resumed.events.map((event) => event.id),
        order.slice(1),
      );
    });

    it('keeps every event exactly once with gapless revisions under many concurrent appenders', {
      skip,
    }, async () => {
      const writers = 20;
      const perWriter = 25;
      const prefix = uniqueName('load-') + '-';
      const streams = Array.from({ length: 5 }, (_, i) => `${prefix}${i}`);
      const watchers = [collect({ streamPrefixes: [prefix] }), collect({ streamPrefixes: [prefix] })];
      const written: NewEvent[] = [];
      let conflicts = 0;

      const write = async (writer: number) => {
        const known = new Map<string, number>();
        for (let seq = 0; seq < perWriter; seq++) {
          const streamId = streams[(writer + seq) % streams.length]!;
          const event = newEvent('Written', { writer, seq });
          written.push(event);
          for (;;) {
            try {
              const result = await store.append(streamId, [event], known.get(streamId) ?? 0);
              known.set(streamId, result.revision);
              break;
            } catch (error) {
              if (!(error instanceof WrongExpectedRevision)) throw error;
              conflicts++;
              known.set(streamId, error.actual);
            }
          }
        }
      };
      await Promise.all(Array.from({ length: writers }, (_, writer) => write(writer)));

      const total = writers * perWriter;
      assert.ok(conflicts > 0, 'the writers should have collided at least once');
      const stored: RecordedEvent[] = [];
      for (const streamId of streams) {
        const events = await store.readStream(streamId);
        assert.deepEqual(
          events.map((event) => event.revision),
          events.map((_, i) => i + 1),
          `revisions of ${streamId} are gapless`,
        );
        for (let writer = 0; writer < writers; writer++) {
          const seqs = events
            .filter((event) => event.data.writer === writer)
            .map((event) => event.data.seq as number);
          assert.deepEqual(
            seqs,
            [...seqs].sort((x, y) => x - y),
            `writer ${writer} order in ${streamId}`,
          );
        }
        stored.push(...events);
      }
      assert.equal(stored.length, total);
      assert.deepEqual(new Set(stored.map((event) => event.id)), new Set(written.map((event) => event.id)));

      await waitFor(
        () => watchers.every((watcher) => watcher.events.length >= total),
        'subscriptions catching up',
      );
      await delay(SETTLE_MS);
      for (const watcher of watchers) {
        assert.equal(watcher.events.length, total);
        assert.equal(new Set(watcher.events.map((event) => event.id)).size, total);
        assertAscendingPositions(watcher.events);
      }
    });
  });
}

function newEvent(type = 'ThingHappened', data: Record<string, unknown> = {}): NewEvent {
  return {
    id: randomUUID(),
    type,
    version: 1,
    data,
    metadata: { correlationId: randomUUID(), timestamp: new Date().toISOString() },
  };
}

function uniqueName(prefix: string): string {
  return prefix + randomUUID().replaceAll('-', '').slice(0, 16);
}

function assertAscendingPositions(events: readonly RecordedEvent[]): void {
  events.forEach((event, i) => {
    if (i > 0) assert.ok(events[i - 1]!.position < event.position, `position ${i} ascends`);
  });
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out after ${DELIVERY_TIMEOUT_MS} ms waiting for ${what}`);
    await delay(10);
  }
}
