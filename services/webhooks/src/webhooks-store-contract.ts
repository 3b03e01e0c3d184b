/**
 * The webhooks service's state, for every adapter: subscriptions; the outbox's rows written once per
 * bus message with the document's facts; one pending row per subscription and document handed out at
 * a time, each claimed for one sender until recorded or lapsed; the log and its retention.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FanOut } from './businessLogic';
import { decideAttempt } from './businessLogic';
import { type AttemptResult, evolve } from './delivery';
import type { DocumentFacts, MappedEvent } from './event-mapping';
import { webhookMessageId } from './outbox';
import type { Subscription } from './subscription';
import type { Outbox, PendingDelivery, WebhooksStore } from './webhooks-store';

export const CONTRACT_CLAIM_MS = 1_000;
const FACTS: DocumentFacts = { form: 'memo', phase: 'registration', status: 'draft', step: 0, iteration: 0 };

export function fixtureEvent(documentId: string, sourceId: string): MappedEvent {
  const payload = {
    type: 'document.created' as const,
    timestamp: '2026-11-24T07:00:00.000Z',
    data: { documentId, idWeb: 'x', form: 'memo', revision: 1 },
  };
  return { sourceId, documentId, type: 'document.created', payload };
}

/** The rows of one bus message: `sourceId` for each subscription. */
export const fanOut = (documentId: string, sourceId: string, ...subscriptions: string[]): FanOut[] =>
  subscriptions.map((subscriptionId) => ({ subscriptionId, event: fixtureEvent(documentId, sourceId) }));

export const enqueue = (
  box: Outbox,
  subscription: string,
  documentId: string,
  sourceId: string,
  nowMs: number,
) => box.enqueueOnce(`m-${sourceId}`, documentId, FACTS, fanOut(documentId, sourceId, subscription), nowMs);

/** One attempt as the delivery worker records it (no jitter). */
function record(
  box: Outbox,
  delivery: PendingDelivery,
  result: AttemptResult,
  schedule: number[],
  nowMs: number,
) {
  return box.record(
    delivery.seq,
    evolve(delivery, decideAttempt({ result, schedule, nowMs, random: 0 }, delivery)),
  );
}

const subscription = (id: string): Subscription => ({
  id,
  url: `https://${id}.example/h`,
  eventTypes: ['document.created'],
  createdAt: '2026-11-24T07:00:00.000Z',
  secret: `whsec_${id}`,
});

/** `open` gives an empty store each time, its claims held for CONTRACT_CLAIM_MS. */
export function describeWebhooksStoreContract(
  name: string,
  open: () => Promise<WebhooksStore>,
  options: { skip?: string } = {},
): void {
  describe(`webhooks store: ${name}`, { skip: options.skip }, () => {
    it('keeps subscriptions with their secret until deleted', async () => {
      const { subscriptions } = await open();
      await subscriptions.add(subscription('wh_1'));
      await subscriptions.add(subscription('wh_2'));
      assert.deepEqual(await subscriptions.get('wh_1'), subscription('wh_1'));
      assert.deepEqual(
        (await subscriptions.list()).map((s) => s.id),
        ['wh_1', 'wh_2'],
      );
      assert.equal(await subscriptions.delete('wh_1'), true);
      assert.equal(await subscriptions.delete('wh_1'), false);
      assert.equal(await subscriptions.get('wh_1'), undefined);
      assert.deepEqual(
        (await subscriptions.list()).map((s) => s.id),
        ['wh_2'],
      );
    });

    it('writes a bus message once: its rows, one per subscription and source event, with a stable webhook-id, and the document’s facts', async () => {
      const { outbox: box } = await open();
      assert.equal(await box.facts('a'), undefined);
      await box.enqueueOnce('m1', 'a', FACTS, fanOut('a', 'e1/0', 'wh_1', 'wh_2'), 0);
      await box.enqueueOnce('m1', 'a', { ...FACTS, step: 9 }, fanOut('a', 'e1/0', 'wh_1', 'wh_2'), 5);
      await box.enqueueOnce('m2', 'a', FACTS, fanOut('a', 'e1/0', 'wh_1'), 5);
      assert.deepEqual(await box.facts('a'), FACTS, 'the repeated message changed nothing');
      assert.equal((await box.log('wh_1', 0, 10)).total, 1);
      const due = await box.claim(10, 10);
      assert.equal(due.length, 2);
      assert.deepEqual(
        due.map((d) => d.webhookId).sort(),
        [webhookMessageId('wh_1', 'e1/0'), webhookMessageId('wh_2', 'e1/0')].sort(),
      );
    });

    it('sends a document’s events in order: a later one waits until the earlier was delivered or given up', async () => {
      const { outbox: box } = await open();
      const schedule = [100];
      for (const id of ['a1', 'a2', 'a3']) await enqueue(box, 'wh_1', 'a', id, 0);
      await enqueue(box, 'wh_1', 'b', 'b1', 0);
      const claimed = await box.claim(0, 10);
      assert.deepEqual(
        claimed.map((d) => d.documentId),
        ['a', 'b'],
      );
      assert.deepEqual(await box.claim(0, 10), [], 'claimed rows are not handed out twice');
      const [a1, b1] = claimed as [PendingDelivery, PendingDelivery];
      await record(box, a1, { status: 500 }, schedule, 0);
      await record(box, b1, { status: 200 }, schedule, 0);
      assert.deepEqual(await box.claim(50, 10), [], 'a1 waits for its retry, and a2 behind it');
      assert.equal(await box.nextDueAt(), 0, 'a2 was due at once (it waits behind a1)');

      const [retry] = await box.claim(200, 10);
      assert.equal(retry?.seq, a1.seq);
      assert.equal(retry.attempts, 1);
      await record(box, retry, { error: 'timeout' }, schedule, 200);
      // Given up: the next event of the document is due.
      const [next] = await box.claim(200, 10);
      assert.notEqual(next?.seq, a1.seq);
      await record(box, next!, { status: 200 }, schedule, 200);
      const log = await box.log('wh_1', 0, 10);
      assert.equal(log.total, 4);
      assert.deepEqual(
        log.page.map((d) => [d.documentId, d.status, d.attempts]),
        [
          ['b', 'delivered', 1],
          ['a', 'pending', 0],
          ['a', 'delivered', 1],
          ['a', 'failed', 2],
        ],
      );
      assert.equal(log.page[3]!.lastError, 'timeout');
      assert.equal(log.page[2]!.lastStatus, 200);
      assert.ok(log.page[2]!.deliveredAt);
    });

    it('a claim whose sender never recorded it (its process died) lapses after its time', async () => {
      const { outbox: box } = await open();
      await enqueue(box, 'wh_1', 'a', 'a1', 0);
      const [first] = await box.claim(0, 10);
      assert.ok(first);
      assert.deepEqual(await box.claim(CONTRACT_CLAIM_MS - 1, 10), []);
      assert.deepEqual(
        (await box.claim(CONTRACT_CLAIM_MS, 10)).map((d) => d.webhookId),
        [first.webhookId],
        'sent again, with the same webhook-id',
      );
    });

    it('forgets delivered and given-up rows past the retention, never pending ones; a deleted subscription’s rows go', async () => {
      const { outbox: box } = await open();
      const day = 24 * 60 * 60 * 1000;
      await enqueue(box, 'wh_1', 'a', 'old-delivered', 0);
      await enqueue(box, 'wh_1', 'b', 'old-failed', 0);
      await enqueue(box, 'wh_1', 'c', 'old-pending', 0);
      await enqueue(box, 'wh_1', 'd', 'new-delivered', 40 * day);
      await enqueue(box, 'wh_2', 'e', 'other', 40 * day);
      for (const d of await box.claim(40 * day, 10)) {
        if (d.documentId === 'c' || d.documentId === 'e') continue;
        await record(box, d, d.documentId === 'b' ? { status: 500 } : { status: 200 }, [], 40 * day);
      }
      assert.equal(await box.pruneFinished(30 * day), 2);
      const left = (await box.log('wh_1', 0, 10)).page.map((r) => `${r.documentId}:${r.status}`);
      assert.deepEqual(left.sort(), ['c:pending', 'd:delivered']);
      await box.removeOf('wh_2');
      assert.equal((await box.log('wh_2', 0, 10)).total, 0);
    });
  });
}
