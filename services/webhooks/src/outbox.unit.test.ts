import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { decideAttempt } from './businessLogic';
import { type AttemptResult, evolve } from './delivery';
import type { MappedEvent } from './event-mapping';
import { type Outbox, outbox, type PendingDelivery, webhookMessageId } from './outbox';

function event(documentId: string, sourceId: string): MappedEvent {
  const payload = {
    type: 'document.created' as const,
    timestamp: '2026-11-24T07:00:00.000Z',
    data: { documentId, idWeb: 'x', form: 'memo', revision: 1 },
  };
  return { sourceId, documentId, type: 'document.created', payload };
}

/** One attempt as the delivery worker records it (no jitter). */
function record(
  box: Outbox,
  delivery: PendingDelivery,
  result: AttemptResult,
  schedule: number[],
  nowMs: number,
) {
  box.record(delivery.seq, evolve(delivery, decideAttempt({ result, schedule, nowMs, random: 0 }, delivery)));
}

describe('webhook outbox', () => {
  it('keeps one row per subscription and source event, with a stable webhook-id', () => {
    const box = outbox(openLocalDb(':memory:'));
    box.enqueue('wh_1', event('a', 'e1/0'), 0);
    box.enqueue('wh_1', event('a', 'e1/0'), 5);
    box.enqueue('wh_2', event('a', 'e1/0'), 0);
    assert.equal(box.log('wh_1', 0, 10).total, 1);
    assert.equal(box.due(10, 10).length, 2);
    assert.equal(webhookMessageId('wh_1', 'e1/0'), webhookMessageId('wh_1', 'e1/0'));
    assert.notEqual(webhookMessageId('wh_1', 'e1/0'), webhookMessageId('wh_2', 'e1/0'));
    assert.equal(box.due(10, 10)[0]!.webhookId, webhookMessageId('wh_1', 'e1/0'));
  });

  it('sends a document’s events in order: a later one waits until the earlier was delivered or given up', () => {
    const box = outbox(openLocalDb(':memory:'));
    const schedule = [100];
    for (const id of ['a1', 'a2', 'a3']) box.enqueue('wh_1', event('a', id), 0);
    box.enqueue('wh_1', event('b', 'b1'), 0);
    const docs = (now: number) => box.due(now, 10).map((d) => d.documentId);
    assert.deepEqual(docs(0), ['a', 'b']);

    const [a1] = box.due(0, 10);
    record(box, a1!, { status: 500 }, schedule, 0);
    // a1 waits for its retry, and a2 behind it; b is not held up.
    assert.deepEqual(docs(50), ['b']);
    assert.deepEqual(docs(Number.MAX_SAFE_INTEGER), ['b', 'a']);
    assert.equal(box.nextDueAt(), 0);

    const retry = box.due(200, 10).find((d) => d.documentId === 'a')!;
    assert.equal(retry.seq, a1!.seq);
    assert.equal(retry.attempts, 1);
    record(box, retry, { error: 'timeout' }, schedule, 200);
    // Given up: the next event of the document is due.
    const next = box.due(200, 10).find((d) => d.documentId === 'a')!;
    assert.notEqual(next.seq, a1!.seq);
    record(box, next, { status: 200 }, schedule, 200);
    const log = box.log('wh_1', 0, 10);
    assert.equal(log.total, 4);
    assert.deepEqual(
      log.page.map((d) => [d.status, d.attempts]),
      [
        ['pending', 0],
        ['pending', 0],
        ['delivered', 1],
        ['failed', 2],
      ],
    );
    assert.equal(log.page[3]!.lastError, 'timeout');
    assert.equal(log.page[2]!.lastStatus, 200);
    assert.ok(log.page[2]!.deliveredAt);
  });

  it('forgets delivered and given-up rows past the retention, never pending ones', () => {
    const box = outbox(openLocalDb(':memory:'));
    const day = 24 * 60 * 60 * 1000;
    box.enqueue('wh_1', event('a', 'old-delivered'), 0);
    box.enqueue('wh_1', event('b', 'old-failed'), 0);
    box.enqueue('wh_1', event('c', 'old-pending'), 0);
    box.enqueue('wh_1', event('d', 'new-delivered'), 40 * day);
    for (const d of box.due(40 * day, 10)) {
      if (d.documentId === 'c') continue;
      record(box, d, d.documentId === 'b' ? { status: 500 } : { status: 200 }, [], 40 * day);
    }
    assert.equal(box.pruneFinished(30 * day), 2);
    const left = box.log('wh_1', 0, 10).page.map((r) => `${r.documentId}:${r.status}`);
    assert.deepEqual(left.sort(), ['c:pending', 'd:delivered']);
  });
});
