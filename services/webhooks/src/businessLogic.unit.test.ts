import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Rejection, type WebhookCreate } from '@docflow/contracts';
import {
  type CreateSubscription,
  decideAttempt,
  decideCreate,
  decideFanOut,
  type RecordAttempt,
  requireSubscription,
} from './businessLogic';
import { type DeliveryState, evolve } from './delivery';
import type { MappedEvent } from './event-mapping';
import { parseAllowList } from './target-guard';

const rejected = (kind: Rejection['kind']) => (error: unknown) =>
  error instanceof Rejection && error.kind === kind;

describe('subscription create', () => {
  const none = parseAllowList([]);
  const when = (input: WebhookCreate, more: Partial<CreateSubscription> = {}, allow = none) =>
    decideCreate(
      { input, id: 'wh_1', secret: 'whsec_x', createdAt: '2026-11-26T00:00:00.000Z', ...more },
      allow,
    );

  it('makes the subscription from the input, each event type once, a missing description left out', () => {
    assert.deepEqual(
      when({ url: 'https://a.example/h', eventTypes: ['task.opened', 'document.created', 'task.opened'] }),
      {
        id: 'wh_1',
        url: 'https://a.example/h',
        eventTypes: ['task.opened', 'document.created'],
        createdAt: '2026-11-26T00:00:00.000Z',
        secret: 'whsec_x',
      },
    );
    assert.equal(
      when({ url: 'https://a.example/h', eventTypes: ['task.opened'], description: 'ops' }).description,
      'ops',
    );
  });

  it('refuses a literal address in a refused range, unless the allow-list holds it', () => {
    const loopback: WebhookCreate = { url: 'http://127.0.0.1:8080/h', eventTypes: ['task.opened'] };
    assert.throws(() => when(loopback), rejected('invalid'));
    assert.equal(when(loopback, {}, parseAllowList(['127.0.0.0/8'])).url, loopback.url);
  });

  it('refuses a name the lookup found in a refused range, and takes a name that did not resolve', () => {
    const input: WebhookCreate = { url: 'https://inside.example/h', eventTypes: ['task.opened'] };
    assert.throws(
      () =>
        when(input, {
          resolvedRefusal: 'inside.example is a private address, not allowed as a webhook target',
        }),
      (error) => rejected('invalid')(error) && /inside\.example is a private address/.test(String(error)),
    );
    assert.equal(when(input).id, 'wh_1');
  });
});

describe('subscription lookup (read, delete, delivery log)', () => {
  it('answers the subscription that exists, and not found for one that does not', () => {
    const found = { id: 'wh_1', url: 'https://a.example/h', eventTypes: [], createdAt: '', secret: 's' };
    assert.equal(requireSubscription(found), found);
    assert.throws(() => requireSubscription(undefined), rejected('notFound'));
  });
});

describe('fan-out of webhook events to subscriptions', () => {
  const event = (type: MappedEvent['type'], sourceId: string): MappedEvent => ({
    sourceId,
    documentId: 'd',
    type,
    payload: { type, timestamp: '', data: {} } as unknown as MappedEvent['payload'],
  });
  const created = event('document.created', 'm/0');
  const opened = event('task.opened', 'm/1');
  const subscriptions = [
    { id: 'wh_all', eventTypes: ['document.created', 'task.opened'] as MappedEvent['type'][] },
    { id: 'wh_tasks', eventTypes: ['task.opened'] as MappedEvent['type'][] },
    { id: 'wh_reco', eventTypes: ['recognition.done'] as MappedEvent['type'][] },
  ];

  it('sends each event to every subscription listing its type, and to no other', () => {
    assert.deepEqual(
      decideFanOut([created, opened], subscriptions).map((r) => `${r.subscriptionId} ${r.event.sourceId}`),
      ['wh_all m/0', 'wh_all m/1', 'wh_tasks m/1'],
    );
  });

  it('sends nothing when no subscription matches or there is none', () => {
    assert.deepEqual(decideFanOut([created], subscriptions.slice(1)), []);
    assert.deepEqual(decideFanOut([created, opened], []), []);
  });
});

describe('a delivery attempt’s outcome', () => {
  const pending: DeliveryState = {
    status: 'pending',
    attempts: 0,
    lastStatus: null,
    lastError: null,
    nextAttemptAt: 0,
    deliveredAt: null,
  };
  const attempt = (state: DeliveryState, result: RecordAttempt['result'], nowMs = 1000, random = 0) =>
    evolve(state, decideAttempt({ result, schedule: [100, 200], nowMs, random }, state));

  it('given a pending delivery, when a 2xx answers, then it is delivered', () => {
    assert.deepEqual(attempt(pending, { status: 204 }), {
      status: 'delivered',
      attempts: 1,
      lastStatus: 204,
      lastError: null,
      nextAttemptAt: null,
      deliveredAt: new Date(1000).toISOString(),
    });
  });

  it('given a pending delivery, when the answer is no 2xx or there is none, then it is retried after the next delay', () => {
    assert.deepEqual(attempt(pending, { status: 500 }), {
      status: 'pending',
      attempts: 1,
      lastStatus: 500,
      lastError: 'HTTP 500',
      nextAttemptAt: 1100,
      deliveredAt: null,
    });
    assert.equal(attempt(pending, { status: 302 }).status, 'pending');
    assert.deepEqual(attempt(pending, { error: 'timeout' }), {
      status: 'pending',
      attempts: 1,
      lastStatus: null,
      lastError: 'timeout',
      nextAttemptAt: 1100,
      deliveredAt: null,
    });
  });

  it('stretches the delay by up to 20 % of jitter', () => {
    assert.equal(attempt(pending, { status: 503 }, 1000, 0.5).nextAttemptAt, 1110);
  });

  it('given as many failed attempts as the schedule has delays, when one more fails, then it is given up', () => {
    const twice = attempt(attempt(pending, { status: 500 }), { status: 500 });
    assert.equal(twice.status, 'pending');
    assert.equal(twice.nextAttemptAt, 1200);
    assert.deepEqual(attempt(twice, { error: 'refused' }), {
      status: 'failed',
      attempts: 3,
      lastStatus: null,
      lastError: 'refused',
      nextAttemptAt: null,
      deliveredAt: null,
    });
  });

  it('given a pending delivery with no retries, when it fails, then it is given up at once', () => {
    const failed = evolve(
      pending,
      decideAttempt({ result: { status: 500 }, schedule: [], nowMs: 0, random: 0 }, pending),
    );
    assert.equal(failed.status, 'failed');
    assert.equal(failed.attempts, 1);
  });
});
