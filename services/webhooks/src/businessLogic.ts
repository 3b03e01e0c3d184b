/**
 * The webhooks service's decisions, pure functions: a subscription's create and lookup, which
 * subscriptions a document's webhook events fan out to, and what an attempt's outcome does to a
 * delivery. The adapters (api.ts, document-consumer.ts, delivery-worker.ts) do the I/O around them.
 */
import { rejections, type WebhookCreate } from '@docflow/contracts';
import { type AttemptResult, type DeliveryEvent, isSuccess } from './delivery';
import type { MappedEvent } from './event-mapping';
import { nextAttemptAt } from './retry-schedule';
import type { Subscription } from './subscription';
import { type AllowList, bareHost, RefusedTarget, refusedLiteral } from './target-guard';

export interface CreateSubscription {
  input: WebhookCreate;
  /** Made by the adapter: the new subscription's id, secret and creation time. */
  id: string;
  secret: string;
  createdAt: string;
  /** Why the guard refuses the addresses the target's host resolved to, when it does (looked up by the adapter). */
  resolvedRefusal?: string;
}

/**
 * The new subscription, its event types without repeats. A target whose literal address, or any
 * address its name resolved to, lies in a refused range is invalid (a name that did not resolve is
 * accepted: it is checked again at every delivery).
 */
export function decideCreate(command: CreateSubscription, allow: AllowList): Subscription {
  const { input } = command;
  const url = new URL(input.url);
  const literal = refusedLiteral(url, allow);
  if (literal) throw rejections.invalid(new RefusedTarget(bareHost(url), literal).message);
  if (command.resolvedRefusal) throw rejections.invalid(command.resolvedRefusal);
  return {
    id: command.id,
    url: input.url,
    eventTypes: [...new Set(input.eventTypes)],
    ...(input.description === undefined ? {} : { description: input.description }),
    createdAt: command.createdAt,
    secret: command.secret,
  };
}

/** The subscription a read, a delete or a delivery log names; one that does not exist is not found. */
export function requireSubscription(found: Subscription | undefined): Subscription {
  if (!found) throw rejections.notFound('no such webhook');
  return found;
}

/** One outbox row to write: a webhook event for one subscription. */
export interface FanOut {
  subscriptionId: string;
  event: MappedEvent;
}

/** Each webhook event goes to every subscription that lists its type, once. */
export function decideFanOut(
  events: readonly MappedEvent[],
  subscriptions: readonly Pick<Subscription, 'id' | 'eventTypes'>[],
): FanOut[] {
  return events.flatMap((event) =>
    subscriptions
      .filter((s) => s.eventTypes.includes(event.type))
      .map((s) => ({ subscriptionId: s.id, event })),
  );
}

export interface RecordAttempt {
  result: AttemptResult;
  /** Delays between attempts (retry-schedule.ts). */
  schedule: readonly number[];
  nowMs: number;
  /** In [0, 1): the jitter of the next retry. */
  random: number;
}

/**
 * An attempt's outcome: delivered on a 2xx; otherwise due again after the schedule's next delay, or
 * given up when the schedule is used up (after one attempt more than it has delays).
 */
export function decideAttempt(command: RecordAttempt, state: { attempts: number }): DeliveryEvent {
  const { result } = command;
  if (isSuccess(result)) return { type: 'Delivered', data: { status: result.status, at: command.nowMs } };
  const failure = {
    ...(result.status === undefined ? {} : { status: result.status }),
    error: result.error ?? `HTTP ${result.status}`,
  };
  const retryAt = nextAttemptAt(command.schedule, state.attempts + 1, command.nowMs, command.random);
  return retryAt === undefined
    ? { type: 'GivenUp', data: failure }
    : { type: 'RetryScheduled', data: { ...failure, retryAt } };
}
