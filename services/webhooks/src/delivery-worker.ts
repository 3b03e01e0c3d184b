/**
 * Sends due outbox rows, a bounded number at a time, and records each attempt's outcome. Rows of one
 * subscription and document go one after the other (the outbox only hands out the oldest pending), and
 * each row to one sender (the outbox claims it for this one). Wakes when rows are added, when the next
 * retry is due, and at least every `pollMs`.
 */
import type { Logger } from '@docflow/kit';
import { metricsRegistry } from '@docflow/kit/http';
import { Counter } from 'prom-client';
import { decideAttempt } from './businessLogic';
import { type AttemptResult, evolve, isSuccess } from './delivery';
import type { SignedMessage } from './send';
import type { Outbox, PendingDelivery, SubscriptionStore } from './webhooks-store';

const attemptsTotal = new Counter({
  name: 'docflow_webhook_attempts_total',
  help: 'Webhook delivery attempts, by outcome (delivered, failed attempt)',
  labelNames: ['outcome'],
  registers: [metricsRegistry],
});

export interface DeliveryWorkerDeps {
  outbox: Outbox;
  subscriptions: SubscriptionStore;
  send: (message: SignedMessage) => Promise<AttemptResult>;
  /** Delays between attempts (retry-schedule.ts). */
  schedule: readonly number[];
  log: Logger;
  /** Attempts under way at once (default 8). */
  concurrency?: number;
  pollMs?: number;
}

export interface DeliveryWorker {
  /** Looks for due rows now. */
  kick(): void;
  /** Stops taking rows and waits for the attempts under way. */
  stop(): Promise<void>;
}

export function startDeliveryWorker(deps: DeliveryWorkerDeps): DeliveryWorker {
  const concurrency = deps.concurrency ?? 8;
  const pollMs = deps.pollMs ?? 1000;
  const inFlight = new Map<number, Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  async function attempt(delivery: PendingDelivery): Promise<void> {
    const subscription = await deps.subscriptions.get(delivery.subscriptionId);
    // Deleted meanwhile: its rows go with it.
    if (!subscription) return deps.outbox.removeOf(delivery.subscriptionId);
    const result: AttemptResult = await deps
      .send({
        url: subscription.url,
        secret: subscription.secret,
        webhookId: delivery.webhookId,
        payload: delivery.payload,
      })
      .catch((error: Error) => ({ error: error.message }));
    const outcome = decideAttempt(
      { result, schedule: deps.schedule, nowMs: Date.now(), random: Math.random() },
      delivery,
    );
    await deps.outbox.record(delivery.seq, evolve(delivery, outcome));
    attemptsTotal.inc({ outcome: isSuccess(result) ? 'delivered' : 'failed' });
    const fields = {
      webhook: subscription.id,
      webhookId: delivery.webhookId,
      event: delivery.eventType,
      attempt: delivery.attempts + 1,
      status: result.status,
      error: result.error,
    };
    if (isSuccess(result)) deps.log.debug(fields, 'webhook delivered');
    else deps.log.info(fields, 'webhook attempt failed');
  }

  let pumping = false;
  let again = false;
  /** One pass at a time: a kick during a pass makes one more pass after it. */
  async function pump(): Promise<void> {
    if (stopped) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    let wait = pollMs;
    try {
      do {
        again = false;
        const now = Date.now();
        const free = concurrency - inFlight.size;
        for (const delivery of free > 0 ? await deps.outbox.claim(now, free) : []) {
          const running = attempt(delivery)
            .catch((error: Error) => deps.log.error({ err: error }, 'webhook attempt not recorded'))
            .finally(() => {
              inFlight.delete(delivery.seq);
              void pump();
            });
          inFlight.set(delivery.seq, running);
        }
        const next = await deps.outbox.nextDueAt();
        // A row already due is under way or waits for one that is: their end pumps again.
        wait = next !== undefined && next > now ? Math.min(pollMs, next - now) : pollMs;
      } while (again && !stopped);
    } catch (error) {
      deps.log.warn({ err: error }, 'webhook outbox not read; tried again shortly');
    } finally {
      pumping = false;
    }
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(pump, wait);
    timer.unref();
  }

  setImmediate(pump);
  return {
    kick: () => setImmediate(pump),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.allSettled(inFlight.values());
    },
  };
}
