/** The bus port's conformance suite: every adapter's test file runs it. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, afterEach, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_HANDLER_RETRY, type DeadLetterValue, deadLetterTopic } from './delivery.js';
import {
  type Bus,
  type BusMessage,
  type Consumer,
  type ConsumerOptions,
  type DeliveredMessage,
  DependencyUnavailable,
  type MessageHandler,
} from './port.js';

export interface BusContractOptions {
  /** Skips the whole suite; the reason is printed. */
  skip?: string;
  /** Longest wait for a delivery to arrive (default 10 s; Kafka needs more for a group to join). */
  deliveryTimeoutMs?: number;
  /**
   * Skips the case "a stuck message delays only its own partition" with this reason, for an adapter
   * whose consumer fetches nothing new until every message of its last fetch is handled.
   */
  partitionsShareAFetch?: string;
}

export type MakeBus = () => Promise<{ bus: Bus; cleanup: () => Promise<void> }>;

const POLL_MS = 20;

function unique(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

function message(key: string, seq: number): BusMessage {
  return { id: randomUUID(), key, value: { key, seq, text: 'Grüße ✓', nested: { list: [1, 'two', null] } } };
}

/**
 * Runs the contract against one adapter. `makeBus` is called once for the suite and once more for the
 * second member of a group; an in-process adapter may hand out the same bus both times.
 *
 * @example
 * describeBusContract('in-process', async () => {
 *   const bus = createInProcessBus();
 *   return { bus, cleanup: () => bus.close() };
 * });
 */
export function describeBusContract(adapterName: string, makeBus: MakeBus, options: BusContractOptions = {}) {
  const deliveryTimeoutMs = options.deliveryTimeoutMs ?? 10_000;
  // A test waits for at most three deliveries in a row, plus the poison message's retries.
  const testTimeout = { timeout: deliveryTimeoutMs * 3 + 30_000 };

  describe(`bus contract: ${adapterName}`, { skip: options.skip }, () => {
    let bus: Bus;
    let cleanup: (() => Promise<void>) | undefined;
    let consumers: Consumer[] = [];

    async function subscribe(on: Bus, consumer: ConsumerOptions, handler: MessageHandler): Promise<Consumer> {
      const started = await on.subscribe(consumer, handler);
      consumers.push(started);
      return started;
    }

    async function waitFor(what: string, done: () => boolean): Promise<void> {
      const deadline = Date.now() + deliveryTimeoutMs;
      while (!done()) {
        if (Date.now() > deadline) assert.fail(`timed out after ${deliveryTimeoutMs} ms waiting for ${what}`);
        await sleep(POLL_MS);
      }
    }

    /** Gives late duplicates a chance to show up before the test counts deliveries. */
    const settle = () => sleep(Math.min(1_000, deliveryTimeoutMs / 10));

    before(async () => {
      ({ bus, cleanup } = await makeBus());
    });

    afterEach(async () => {
      await Promise.all(consumers.map((consumer) => consumer.stop()));
      consumers = [];
    });

    after(async () => {
      await cleanup?.();
    });

    it('delivers a message with its id, key, value and topic intact', testTimeout, async () => {
      const topic = unique('contract-intact');
      const received: DeliveredMessage[] = [];
      await subscribe(bus, { groupId: unique('g'), topics: [topic] }, async (m) => {
        received.push(m);
      });
      const sent = message('doc-1', 0);
      await bus.publish(topic, [sent]);
      await waitFor('the message', () => received.length > 0);
      await settle();
      assert.deepEqual(received, [{ ...sent, topic }]);
    });

    it('delivers the headers published with a message', testTimeout, async () => {
      const topic = unique('contract-headers');
      const received: DeliveredMessage[] = [];
      await subscribe(bus, { groupId: unique('g'), topics: [topic] }, async (m) => {
        received.push(m);
      });
      const headers = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };
      const sent = { ...message('doc-1', 0), headers };
      await bus.publish(topic, [sent]);
      await waitFor('the message', () => received.length > 0);
      assert.deepEqual(received, [{ ...sent, topic }]);
    });

    it('gives every message to each of two groups', testTimeout, async () => {
      const topic = unique('contract-groups');
      const byGroup = [new Set<string>(), new Set<string>()];
      for (const seen of byGroup) {
        await subscribe(bus, { groupId: unique('g'), topics: [topic] }, async (m) => {
          seen.add(m.id);
        });
      }
      const sent = Array.from({ length: 20 }, (_, i) => message(`doc-${i % 7}`, i));
      await bus.publish(topic, sent);
      await waitFor('both groups to get 20 messages', () => byGroup.every((seen) => seen.size === 20));
      for (const seen of byGroup) assert.deepEqual([...seen].sort(), sent.map((m) => m.id).sort());
    });

    it(
      'shares the work of one group between two members (two instances of a service)',
      testTimeout,
      async () => {
        const second = await makeBus();
        try {
          const topic = unique('contract-share');
          const groupId = unique('g');
          const handledBy: string[][] = [[], []];
          await subscribe(bus, { groupId, topics: [topic] }, async (m) => {
            handledBy[0]!.push(m.id);
          });
          await subscribe(second.bus, { groupId, topics: [topic] }, async (m) => {
            handledBy[1]!.push(m.id);
          });
          const sent = Array.from({ length: 120 }, (_, i) => message(`doc-${i % 40}`, i));
          await bus.publish(topic, sent);
          const total = () => handledBy[0]!.length + handledBy[1]!.length;
          await waitFor('120 messages handled by the group', () => total() >= sent.length);
          await settle();
          assert.deepEqual([...handledBy[0]!, ...handledBy[1]!].sort(), sent.map((m) => m.id).sort());
          assert.ok(handledBy[0]!.length > 0, 'the first member handled no message');
          assert.ok(handledBy[1]!.length > 0, 'the second member handled no message');
        } finally {
          await Promise.all(consumers.map((consumer) => consumer.stop()));
          consumers = [];
          await second.cleanup();
        }
      },
    );

    it('lets a stuck group delay neither publish nor another group', testTimeout, async () => {
      const topic = unique('contract-stuck-group');
      const release = gate();
      const stuckStarted = gate();
      const stuck: string[] = [];
      const other: string[] = [];
      await subscribe(bus, { groupId: unique('stuck'), topics: [topic] }, async (m) => {
        stuckStarted.open();
        await release.opened;
        stuck.push(m.id);
      });
      await subscribe(bus, { groupId: unique('other'), topics: [topic] }, async (m) => {
        other.push(m.id);
      });
      const first = message('doc-1', 0);
      let accepted = 0;
      const publish = (messages: BusMessage[]) =>
        bus.publish(topic, messages).then(() => {
          accepted++;
        });
      const firstAccepted = publish([first]);
      await stuckStarted.opened;
      const later = Array.from({ length: 10 }, (_, i) => message(`doc-${i % 4}`, i + 1));
      const laterAccepted = publish(later);
      try {
        await waitFor('publish to return while a group is stuck', () => accepted === 2);
        await waitFor('the other group to get every message', () => other.length === later.length + 1);
      } finally {
        release.open();
      }
      await Promise.all([firstAccepted, laterAccepted]);
      await waitFor('the stuck group to catch up', () => stuck.length === later.length + 1);
      assert.deepEqual(stuck.sort(), [first, ...later].map((m) => m.id).sort());
    });

    it("lets a stuck message delay only its own partition's messages in its group", {
      ...testTimeout,
      skip: options.partitionsShareAFetch,
    }, async () => {
      const topic = unique('contract-stuck-partition');
      const release = gate();
      const stuckStarted = gate();
      const handled: BusMessage[] = [];
      const stuck = message('stuck-doc', 0);
      await subscribe(bus, { groupId: unique('g'), topics: [topic] }, async (m) => {
        if (m.id === stuck.id) {
          stuckStarted.open();
          await release.opened;
        }
        handled.push(m);
      });
      await bus.publish(topic, [stuck]);
      await stuckStarted.opened;
      // Twenty keys spread over every partition, so some land beside the stuck one's.
      const others = Array.from({ length: 20 }, (_, i) => message(`doc-${i}`, 1));
      const sameKey = message('stuck-doc', 1);
      try {
        await bus.publish(topic, [sameKey, ...others]);
        await waitFor('messages of other partitions while one message is stuck', () => handled.length > 0);
        assert.ok(!handled.some((m) => m.key === 'stuck-doc'), 'a later message of the stuck key went first');
      } finally {
        release.open();
      }
      await waitFor('every message', () => handled.length === others.length + 2);
      assert.deepEqual(
        handled.filter((m) => m.key === 'stuck-doc').map((m) => m.id),
        [stuck.id, sameKey.id],
      );
    });

    it('keeps the publish order of each key', testTimeout, async () => {
      const topic = unique('contract-order');
      const seqsByKey = new Map<string, number[]>();
      await subscribe(bus, { groupId: unique('g'), topics: [topic] }, async (m) => {
        const seqs = seqsByKey.get(m.key) ?? [];
        seqs.push(m.value.seq as number);
        seqsByKey.set(m.key, seqs);
        if (seqs.length % 7 === 0) await sleep(1);
      });
      const keys = Array.from({ length: 5 }, (_, i) => `doc-${i}`);
      const perKey = 50;
      const sent = Array.from({ length: keys.length * perKey }, (_, i) =>
        message(keys[i % keys.length]!, Math.floor(i / keys.length)),
      );
      for (let i = 0; i < sent.length; i += 25) await bus.publish(topic, sent.slice(i, i + 25));
      const count = () => [...seqsByKey.values()].reduce((sum, seqs) => sum + seqs.length, 0);
      await waitFor(`${sent.length} messages`, () => count() >= sent.length);
      await settle();
      const expected = Array.from({ length: perKey }, (_, i) => i);
      for (const key of keys) assert.deepEqual(seqsByKey.get(key), expected, `order of ${key}`);
    });

    it(
      'redelivers a message whose handler threw, before anything later of its key',
      testTimeout,
      async () => {
        const topic = unique('contract-redeliver');
        const sent = Array.from({ length: 5 }, (_, i) => message('doc-1', i));
        const failing = sent[1]!.id;
        let failed = false;
        const calls: string[] = [];
        await subscribe(bus, { groupId: unique('g'), topics: [topic] }, async (m) => {
          calls.push(m.id);
          if (m.id === failing && !failed) {
            failed = true;
            throw new Error('transient failure');
          }
        });
        await bus.publish(topic, sent);
        await waitFor('all five messages', () => calls.length >= sent.length + 1);
        await settle();
        assert.deepEqual(calls, [sent[0]!.id, failing, failing, sent[2]!.id, sent[3]!.id, sent[4]!.id]);
      },
    );

    it('moves a poison message to <topic>.dlq and keeps the later ones flowing', testTimeout, async () => {
      const topic = unique('contract-poison');
      const [first, poison, later] = [message('doc-1', 0), message('doc-1', 1), message('doc-1', 2)];
      let poisonCalls = 0;
      const handled: string[] = [];
      const deadLetters: DeliveredMessage[] = [];
      await subscribe(bus, { groupId: unique('g'), topics: [deadLetterTopic(topic)] }, async (m) => {
        deadLetters.push(m);
      });
      await subscribe(bus, { groupId: unique('g'), topics: [topic] }, async (m) => {
        if (m.id === poison!.id) {
          poisonCalls++;
          throw new Error(`cannot handle ${m.id}`);
        }
        handled.push(m.id);
      });
      await bus.publish(topic, [first!, poison!, later!]);
      await waitFor(
        'the later message and the dead letter',
        () => handled.length >= 2 && deadLetters.length > 0,
      );
      await settle();
      assert.deepEqual(handled, [first!.id, later!.id]);
      assert.ok(poisonCalls > 1, `the poison message was tried ${poisonCalls} time(s), expected retries`);
      assert.equal(deadLetters.length, 1);
      const [dead] = deadLetters;
      assert.equal(dead!.topic, deadLetterTopic(topic));
      assert.equal(dead!.id, poison!.id);
      assert.equal(dead!.key, poison!.key);
      const value = dead!.value as DeadLetterValue;
      assert.equal(value.topic, topic);
      assert.equal(value.error, `cannot handle ${poison!.id}`);
      assert.equal(value.attempts, poisonCalls);
      assert.deepEqual(value.value, poison!.value);
    });

    it('reports the lag of a group per partition: what it has not handled yet', testTimeout, async () => {
      const topic = unique('contract-lag');
      const groupId = unique('g');
      const lagOfGroup = async () =>
        (await bus.consumerLag())
          .filter((l) => l.groupId === groupId && l.topic === topic)
          .reduce((sum, l) => sum + l.lag, 0);
      const handled: string[] = [];
      const first = await subscribe(bus, { groupId, topics: [topic] }, async (m) => {
        handled.push(m.id);
      });
      await bus.publish(topic, [message('doc-1', 0), message('doc-2', 1)]);
      await waitFor('the first messages', () => handled.length >= 2);
      await first.stop();
      await bus.publish(topic, [message('doc-1', 2), message('doc-2', 3), message('doc-3', 4)]);
      assert.equal(await lagOfGroup(), 3);
      await subscribe(bus, { groupId, topics: [topic] }, async (m) => {
        handled.push(m.id);
      });
      await waitFor('the messages published while stopped', () => handled.length >= 5);
      const deadline = Date.now() + deliveryTimeoutMs;
      // Kafka: the offsets are committed a moment after the handler returned.
      while ((await lagOfGroup()) !== 0 && Date.now() < deadline) await sleep(POLL_MS * 10);
      assert.equal(await lagOfGroup(), 0);
    });

    it('resumes a stopped consumer of a group where it left off', testTimeout, async () => {
      const topic = unique('contract-resume');
      const groupId = unique('g');
      const beforeStop: string[] = [];
      const first = await subscribe(bus, { groupId, topics: [topic] }, async (m) => {
        beforeStop.push(m.id);
      });
      const early = Array.from({ length: 10 }, (_, i) => message(`doc-${i % 3}`, i));
      await bus.publish(topic, early);
      await waitFor('the first 10 messages', () => beforeStop.length >= early.length);
      await first.stop();

      const whileStopped = Array.from({ length: 10 }, (_, i) => message(`doc-${i % 3}`, 10 + i));
      await bus.publish(topic, whileStopped);
      const afterRestart: string[] = [];
      await subscribe(bus, { groupId, topics: [topic] }, async (m) => {
        afterRestart.push(m.id);
      });
      await waitFor('the messages published while stopped', () => afterRestart.length >= whileStopped.length);
      await settle();
      const ids = (messages: BusMessage[]) => messages.map((m) => m.id).sort();
      assert.deepEqual(beforeStop.sort(), ids(early));
      assert.deepEqual(
        afterRestart.sort(),
        ids(whileStopped),
        'exactly the messages published while stopped',
      );
    });

    it(
      'retries a handler that throws DependencyUnavailable past the attempts, never dead-letters it, and a stopped consumer leaves it to the next',
      testTimeout,
      async () => {
        const topic = unique('contract-waiting');
        const groupId = unique('g');
        const waiting = message('doc-1', 0);
        const deadLetters: DeliveredMessage[] = [];
        await subscribe(bus, { groupId: unique('g'), topics: [deadLetterTopic(topic)] }, async (m) => {
          deadLetters.push(m);
        });
        let calls = 0;
        const away = await subscribe(bus, { groupId, topics: [topic] }, async () => {
          calls++;
          throw new DependencyUnavailable('the service it needs is away');
        });
        await bus.publish(topic, [waiting]);
        const beyondAttempts = DEFAULT_HANDLER_RETRY.attempts + 2;
        await waitFor(`${beyondAttempts} calls`, () => calls >= beyondAttempts);
        await away.stop();
        const handled: string[] = [];
        await subscribe(bus, { groupId, topics: [topic] }, async (m) => {
          handled.push(m.id);
        });
        await waitFor('the message, handled by the next consumer', () => handled.length > 0);
        await settle();
        assert.deepEqual(handled, [waiting.id]);
        assert.deepEqual(deadLetters, []);
      },
    );
  });
}
