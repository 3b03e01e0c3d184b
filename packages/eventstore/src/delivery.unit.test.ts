/** Per-event delivery: no promise of its own on the first attempt, retries after a failure, stops on abort. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deliver } from './delivery';
import type { EventHandler, RecordedEvent } from './port';

const event: RecordedEvent = {
  id: 'e1',
  type: 'Happened',
  version: 1,
  data: {},
  metadata: { correlationId: 'c', actor: 'usr-1', timestamp: '2026-01-01T00:00:00.000Z' },
  streamId: 's-1',
  revision: 1,
  position: '0000000000000001',
  recordedAt: '2026-01-01T00:00:00.000Z',
};

describe('deliver', () => {
  it('answers true at once when the handler returned without a promise', () => {
    const seen: string[] = [];
    const handler = ((e: RecordedEvent) => {
      seen.push(e.id);
    }) as unknown as EventHandler;
    assert.equal(deliver(event, handler, new AbortController().signal, undefined), true);
    assert.deepEqual(seen, ['e1']);
  });

  it('retries a failed attempt, reporting it, until the handler succeeds', async () => {
    let calls = 0;
    const reported: number[] = [];
    const handler: EventHandler = async () => {
      calls++;
      if (calls === 1) throw new Error('first attempt fails');
    };
    const delivered = deliver(event, handler, new AbortController().signal, (_e, _ev, attempt) =>
      reported.push(attempt),
    );
    assert.equal(await delivered, true);
    assert.equal(calls, 2);
    assert.deepEqual(reported, [1]);
  });

  it('answers false, without calling the handler, once the subscription stopped', async () => {
    const controller = new AbortController();
    controller.abort();
    let calls = 0;
    const handler: EventHandler = async () => {
      calls++;
    };
    assert.equal(await deliver(event, handler, controller.signal, undefined), false);
    assert.equal(calls, 0);
  });

  it('answers false when stopped while waiting to retry', async () => {
    const controller = new AbortController();
    const handler: EventHandler = async () => {
      throw new Error('always fails');
    };
    const delivered = deliver(event, handler, controller.signal, () => controller.abort());
    assert.equal(await delivered, false);
  });
});
