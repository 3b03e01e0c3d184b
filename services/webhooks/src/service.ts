/** Composition of the webhooks service: used by the embedded runner and by main.ts. */
import type { Consumer } from '@docflow/bus';
import { topicsOf } from '@docflow/contracts';
import { createServiceApp, type ServiceBaseDeps, type ServiceClient } from '@docflow/kit/http';
import type { Hono } from 'hono';
import { webhooksApi } from './api';
import type { WebhooksConfig } from './config';
import { type DeliveryWorker, startDeliveryWorker } from './delivery-worker';
import { documentEventsHandler } from './document-consumer';
import { factsFromDocument } from './document-position';
import { outbox as localOutbox } from './outbox';
import { sendSigned } from './send';
import { subscriptionStore } from './subscriptions';
import { parseAllowList } from './target-guard';
import { claimMsFor, type WebhooksStore } from './webhooks-store';
import { postgresWebhooksStore } from './webhooks-store-postgres';

export interface WebhooksServiceDeps extends ServiceBaseDeps {
  /** Allowed private hosts (DOCFLOW_WEBHOOK_ALLOWED_HOSTS), the retry delays and one attempt's limit. */
  allowedHosts: WebhooksConfig['DOCFLOW_WEBHOOK_ALLOWED_HOSTS'];
  retrySchedule: WebhooksConfig['DOCFLOW_WEBHOOK_RETRY_SCHEDULE'];
  timeoutMs: WebhooksConfig['DOCFLOW_WEBHOOK_TIMEOUT_MS'];
  /** Days a delivered or given-up delivery stays in the log (DOCFLOW_WEBHOOK_LOG_DAYS). */
  logDays: WebhooksConfig['DOCFLOW_WEBHOOK_LOG_DAYS'];
  /** The document service: where a document the mapping does not remember stood. */
  document: ServiceClient;
}

const PRUNE_EVERY_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface WebhooksService {
  app: Hono;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createWebhooksService(deps: WebhooksServiceDeps): WebhooksService {
  const { db, bus, log } = deps;
  const allow = parseAllowList(deps.allowedHosts);
  const claimMs = claimMsFor(deps.timeoutMs);
  // On a shared PostgreSQL store in the service's schema, so that several processes deliver each row once.
  const { subscriptions, outbox }: WebhooksStore = deps.sharedSql
    ? postgresWebhooksStore(deps.sharedSql, claimMs)
    : { subscriptions: subscriptionStore(db), outbox: localOutbox(db, claimMs) };
  const app = createServiceApp(deps);
  app.route('/', webhooksApi({ subscriptions, outbox, allow }));
  let worker: DeliveryWorker | undefined;
  let consumer: Consumer | undefined;
  let pruning: NodeJS.Timeout | undefined;
  // The outbox is the delivery log too: without this it would grow with every event for ever.
  async function prune() {
    try {
      const removed = await outbox.pruneFinished(Date.now() - deps.logDays * DAY_MS);
      if (removed) log.info({ removed, logDays: deps.logDays }, 'webhook log: old deliveries removed');
    } catch (err) {
      log.warn({ err }, 'webhook log: removing old deliveries failed; tried again in an hour');
    }
  }
  return {
    app,
    async start() {
      if (!pruning) {
        void prune();
        pruning = setInterval(prune, PRUNE_EVERY_MS);
        pruning.unref();
      }
      worker ??= startDeliveryWorker({
        outbox,
        subscriptions,
        schedule: deps.retrySchedule,
        send: (message) => sendSigned(message, { allow, timeoutMs: deps.timeoutMs }),
        log,
      });
      const kick = worker.kick;
      // One group: each message is handled by one process (the outbox is that of all of them).
      consumer ??= await bus.subscribe(
        { groupId: `${deps.namespace}.webhooks`, topics: [topicsOf(deps.namespace).document] },
        documentEventsHandler({
          factsAt: factsFromDocument(deps.document, deps.internalToken),
          subscriptions,
          outbox,
          enqueued: kick,
          log,
        }),
      );
    },
    async stop() {
      clearInterval(pruning);
      pruning = undefined;
      await consumer?.stop();
      await worker?.stop();
    },
  };
}
