/**
 * Where the webhooks service keeps its state — subscriptions, the outbox of deliveries and what the
 * mapping remembers of each document — as ports with two adapters: the service's local database (one
 * process: subscriptions.ts, outbox.ts) and its schema on the shared PostgreSQL store (several
 * processes: webhooks-store-postgres.ts). One contract suite for both (webhooks-store-contract.ts).
 */
import type { WebhookDelivery } from '@docflow/contracts';
import type { FanOut } from './businessLogic';
import type { DeliveryState } from './delivery';
import type { DocumentFacts, MappedEvent } from './event-mapping';
import type { Subscription } from './subscription';

export interface SubscriptionStore {
  /** Stores a new subscription (decided by businessLogic.ts's decideCreate). */
  add(s: Subscription): Promise<void>;
  list(): Promise<Subscription[]>;
  get(id: string): Promise<Subscription | undefined>;
  /** False when there was no such subscription. */
  delete(id: string): Promise<boolean>;
}

/** A due row: what to send, and its state (delivery.ts). */
export interface PendingDelivery extends DeliveryState {
  seq: number;
  subscriptionId: string;
  webhookId: string;
  documentId: string;
  eventType: MappedEvent['type'];
  payload: string;
}

/** How long a claimed row is held for its claimer before another may take it (ms). */
export const claimMsFor = (attemptTimeoutMs: number) => attemptTimeoutMs + 5_000;

export interface Outbox {
  /** What the mapping remembers of a document, if anything. */
  facts(documentId: string): Promise<DocumentFacts | undefined>;
  /**
   * Once per source message id, in one transaction, durable when it resolves: the document's facts
   * and a row per subscription and webhook event (a row already there stays as it is).
   */
  enqueueOnce(
    messageId: string,
    documentId: string,
    facts: DocumentFacts,
    rows: FanOut[],
    nowMs: number,
  ): Promise<void>;
  /**
   * Due rows, each the oldest pending one of its subscription and document, oldest due first, claimed
   * for the caller: no other caller gets them until they are recorded or the claim lapses (`claimMs`).
   */
  claim(nowMs: number, limit: number): Promise<PendingDelivery[]>;
  /** When the next pending row is due (ms since the epoch), if any is pending. */
  nextDueAt(): Promise<number | undefined>;
  /** Stores a row's state after an attempt (decided by businessLogic.ts, evolved by delivery.ts); ends its claim. */
  record(seq: number, next: DeliveryState): Promise<void>;
  log(
    subscriptionId: string,
    first: number,
    pageSize: number,
  ): Promise<{ total: number; page: WebhookDelivery[] }>;
  removeOf(subscriptionId: string): Promise<void>;
  /**
   * Forgets delivered and given-up rows created before `beforeMs` (the log's retention); pending ones
   * stay whatever their age. Returns how many went.
   */
  pruneFinished(beforeMs: number): Promise<number>;
}

export interface WebhooksStore {
  subscriptions: SubscriptionStore;
  outbox: Outbox;
}
