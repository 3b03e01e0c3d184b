import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeBusContract } from './conformance.js';
import { deadLetterTopic } from './delivery.js';
import { createInProcessBus } from './in-process.js';
import { type Bus, type BusMessage, BusUnavailable } from './port.js';

let shared: Bus | undefined;
let users = 0;

// Two members of one group live on one bus in embedded mode, so every makeBus hands out the same bus.
describeBusContract('in-process', async () => {
  shared ??= createInProcessBus({ retry: { initialMs: 20 } });
  const bus = shared;
  users++;
  return {
    bus,
    cleanup: async () => {
      if (--users > 0) return;
      shared = undefined;
      await bus.close();
    },
  };
});

const message = (seq: number, key = `doc-${seq % 3}`): BusMessage => ({
  id: `m-${seq}`,
  key,
  value: { seq },
});

function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('in-process bus', () => {
  it('resolves durable only after every group handled the messages, dead letters included', async () => {
    const bus = createInProcessBus({ retry: { attempts: 2, initialMs: 5 } });
    const handled = { a: [] as string[], b: [] as string[], dlq: [] as string[] };
    await bus.subscribe({ groupId: 'a', topics: ['t'] }, async (m) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      handled.a.push(m.id);
    });
    await bus.subscribe({ groupId: 'b', topics: ['t'] }, async (m) => {
      if (m.id === 'm-1') throw new Error('poison');
      handled.b.push(m.id);
    });
    await bus.subscribe({ groupId: 'dlq', topics: [deadLetterTopic('t')] }, async (m) => {
      handled.dlq.push(m.id);
    });
    await (await bus.publish('t', [message(0), message(1), message(2)])).durable;
    assert.deepEqual(handled.a.sort(), ['m-0', 'm-1', 'm-2']);
    assert.deepEqual(handled.b.sort(), ['m-0', 'm-2']);
    assert.deepEqual(handled.dlq, ['m-1']);
    await bus.close();
  });

  it('replays retained messages to a group that joins later from the beginning, and only those', async () => {
    const bus = createInProcessBus({ retainedPerTopic: 10 });
    await bus.publish(
      't',
      Array.from({ length: 25 }, (_, i) => message(i)),
    );
    const early: string[] = [];
    const late: string[] = [];
    await bus.subscribe({ groupId: 'early', topics: ['t'] }, async (m) => {
      early.push(m.id);
    });
    await bus.subscribe({ groupId: 'late', topics: ['t'], fromBeginning: false }, async (m) => {
      late.push(m.id);
    });
    await (await bus.publish('t', [message(25)])).durable;
    const retained = Array.from({ length: 10 }, (_, i) => `m-${15 + i}`);
    assert.deepEqual(early.sort(), [...retained, 'm-25'].sort());
    assert.deepEqual(late, ['m-25']);
    await bus.close();
  });

  it('lets stop() wait for the handler in flight', async () => {
    const bus = createInProcessBus();
    const release = gate();
    const started = gate();
    let finished = false;
    const consumer = await bus.subscribe({ groupId: 'g', topics: ['t'] }, async () => {
      started.open();
      await release.opened;
      finished = true;
    });
    const { durable } = await bus.publish('t', [message(0)]);
    await started.opened;
    const stopped = consumer.stop().then(() => finished);
    setTimeout(release.open, 20);
    assert.equal(await stopped, true);
    await durable;
    await bus.close();
  });

  it('rejects a durable still waiting when the bus closes, and refuses work afterwards', async () => {
    const bus = createInProcessBus({ retry: { initialMs: 60_000 } });
    const called = gate();
    await bus.subscribe({ groupId: 'g', topics: ['t'] }, async () => {
      called.open();
      throw new Error('down');
    });
    const { durable } = await bus.publish('t', [message(0)]);
    await called.opened;
    await bus.close();
    await assert.rejects(durable, BusUnavailable);
    await assert.rejects(bus.ping(), BusUnavailable);
    await assert.rejects(bus.publish('t', [message(1)]), BusUnavailable);
  });

  it('makes publish wait while a stuck group owes the most it may, and go on once it moves', async () => {
    const bus = createInProcessBus({ retainedPerTopic: 2, maxOwedPerTopic: 3 });
    const release = gate();
    const stuck: string[] = [];
    await bus.subscribe({ groupId: 'stuck', topics: ['t'] }, async (m) => {
      await release.opened;
      stuck.push(m.id);
    });
    const accepted: string[] = [];
    const publishing = (async () => {
      for (let seq = 0; seq < 8; seq++) {
        await bus.publish('t', [message(seq, 'doc-1')]);
        accepted.push(`m-${seq}`);
      }
    })();
    // Held: the 2 retained and the 3 owed beyond them; the sixth waits for room.
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    while (accepted.length < 5) await turn();
    // An accepted publish would have resolved within this turn of the event loop.
    await turn();
    assert.equal(accepted.length, 5);
    release.open();
    await publishing;
    const { durable } = await bus.publish('t', [message(8, 'doc-1')]);
    await durable;
    assert.deepEqual(
      stuck,
      Array.from({ length: 9 }, (_, seq) => `m-${seq}`),
    );
    await bus.close();
  });

  it('rejects a publish waiting for room when the bus closes', async () => {
    const bus = createInProcessBus({ retainedPerTopic: 1, maxOwedPerTopic: 1 });
    const release = gate();
    await bus.subscribe({ groupId: 'stuck', topics: ['t'] }, () => release.opened);
    await bus.publish('t', [message(0)]);
    await bus.publish('t', [message(1)]);
    const waiting = bus.publish('t', [message(2)]);
    const closed = bus.close();
    await assert.rejects(waiting, BusUnavailable);
    release.open();
    await closed;
  });

  it('does not deadlock when handlers publish to each other', { timeout: 5_000 }, async () => {
    const bus = createInProcessBus();
    const seen: string[] = [];
    await bus.subscribe({ groupId: 'one', topics: ['ping'] }, async (m) => {
      seen.push(m.id);
      if (m.id === 'start') await bus.publish('pong', [{ id: 'reply', key: m.key, value: {} }]);
    });
    await bus.subscribe({ groupId: 'two', topics: ['pong'] }, async (m) => {
      seen.push(m.id);
      await bus.publish('ping', [{ id: 'echo', key: m.key, value: {} }]);
    });
    await bus.publish('ping', [{ id: 'start', key: 'doc-1', value: {} }]);
    await bus.close();
    assert.deepEqual(seen.slice(0, 2), ['start', 'reply']);
  });

  it('rejects a value that is not a JSON object before publishing anything', async () => {
    const bus = createInProcessBus();
    const seen: string[] = [];
    await bus.subscribe({ groupId: 'g', topics: ['t'] }, async (m) => {
      seen.push(m.id);
    });
    const bad = { id: 'bad', key: 'k', value: { n: 1n } } as BusMessage;
    await assert.rejects(bus.publish('t', [message(0), bad]), TypeError);
    await bus.publish('t', [message(1)]);
    assert.deepEqual(seen, ['m-1']);
    await bus.close();
  });
});
