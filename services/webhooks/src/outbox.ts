/**
 * The outbox of deliveries in the service's local database (one process): one row per subscription
 * and webhook event, written by the bus consumer before the bus message is acknowledged, sent by the
 * delivery worker. Per subscription and document only the oldest pending row is due: a later event
 * waits until the earlier one was delivered or given up. Claims are kept in memory: this process is
 * the only one sending.
 */
import { createHash } from 'node:crypto';
import type { WebhookDelivery, WebhookEventType } from '@docflow/contracts';
import { applyOnce, applyOnceDurably, type LocalDb } from '@docflow/kit/eventsourcing';
import type { FanOut } from './businessLogic';
import type { DeliveryState } from './delivery';
import { documentFactsStore } from './document-facts';
import type { Outbox, PendingDelivery } from './webhooks-store';

const CONSUMER = 'webhooks-outbox';

/** A row of `webhook_deliveries`, as both adapters store it. */
export interface DeliveryRow {
  seq: number;
  subscription_id: string;
  webhook_id: string;
  document_id: string;
  event_type: WebhookEventType;
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: number | null;
  delivered_at: string | null;
  created_at: string;
}

/** `webhook-id`: the same for a subscription and a source event, however often it is sent. */
export function webhookMessageId(subscriptionId: string, sourceId: string): string {
  return `msg_${createHash('sha256').update(`${subscriptionId}\n${sourceId}`).digest('hex').slice(0, 32)}`;
}

/**
 * A new row's values, in the column order both adapters insert: subscription_id, source_id,
 * webhook_id, document_id, event_type, payload, next_attempt_at (due now), created_at.
 */
export const newDeliveryValues = ({ subscriptionId, event }: FanOut, nowMs: number) => [
  subscriptionId,
  event.sourceId,
  webhookMessageId(subscriptionId, event.sourceId),
  event.documentId,
  event.type,
  JSON.stringify(event.payload),
  nowMs,
  new Date(nowMs).toISOString(),
];

/**
 * A row's state after an attempt, in the order both adapters update: status, attempts, last_status,
 * last_error, next_attempt_at, delivered_at, then the row's seq.
 */
export const recordedValues = (seq: number, next: DeliveryState) => [
  next.status,
  next.attempts,
  next.lastStatus,
  next.lastError,
  next.nextAttemptAt,
  next.deliveredAt,
  seq,
];

export const pendingFromRow = (r: DeliveryRow): PendingDelivery => ({
  seq: Number(r.seq),
  subscriptionId: r.subscription_id,
  webhookId: r.webhook_id,
  documentId: r.document_id,
  eventType: r.event_type,
  payload: r.payload,
  status: r.status,
  attempts: r.attempts,
  lastStatus: r.last_status,
  lastError: r.last_error,
  nextAttemptAt: r.next_attempt_at === null ? null : Number(r.next_attempt_at),
  deliveredAt: r.delivered_at,
});

export const logEntryFromRow = (r: DeliveryRow): WebhookDelivery => ({
  webhookId: r.webhook_id,
  eventType: r.event_type,
  documentId: r.document_id,
  status: r.status,
  attempts: r.attempts,
  lastStatus: r.last_status,
  lastError: r.last_error,
  nextAttemptAt: r.next_attempt_at === null ? null : new Date(Number(r.next_attempt_at)).toISOString(),
  deliveredAt: r.delivered_at,
  createdAt: r.created_at,
});

export function outbox(db: LocalDb, claimMs: number): Outbox {
  db.exec(`
    CREATE TABLE IF NOT EXISTS webhook_deliveries (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      subscription_id TEXT NOT NULL, source_id TEXT NOT NULL, webhook_id TEXT NOT NULL,
      document_id TEXT NOT NULL, event_type TEXT NOT NULL, payload TEXT NOT NULL,
      status TEXT NOT NULL DEFAULT 'pending', attempts INTEGER NOT NULL DEFAULT 0,
      last_status INTEGER, last_error TEXT, next_attempt_at INTEGER, delivered_at TEXT,
      created_at TEXT NOT NULL,
      UNIQUE (subscription_id, source_id)
    );
    CREATE INDEX IF NOT EXISTS webhook_deliveries_line
      ON webhook_deliveries (subscription_id, document_id, seq) WHERE status = 'pending';
    CREATE INDEX IF NOT EXISTS webhook_deliveries_due
      ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
    CREATE INDEX IF NOT EXISTS webhook_deliveries_log ON webhook_deliveries (subscription_id, seq);
    CREATE INDEX IF NOT EXISTS webhook_deliveries_finished
      ON webhook_deliveries (created_at) WHERE status <> 'pending';
  `);
  const facts = documentFactsStore(db);
  const insert = db.prepare(
    `INSERT OR IGNORE INTO webhook_deliveries
       (subscription_id, source_id, webhook_id, document_id, event_type, payload, next_attempt_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const due = db.prepare<[number, number], DeliveryRow>(
    `SELECT * FROM webhook_deliveries d
      WHERE d.status = 'pending' AND d.next_attempt_at <= ?
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e
                         WHERE e.status = 'pending' AND e.subscription_id = d.subscription_id
                           AND e.document_id = d.document_id AND e.seq < d.seq)
      ORDER BY d.next_attempt_at, d.seq LIMIT ?`,
  );
  const nextDue = db.prepare<[], { at: number | null }>(
    "SELECT MIN(next_attempt_at) AS at FROM webhook_deliveries WHERE status = 'pending'",
  );
  const update = db.prepare(
    `UPDATE webhook_deliveries SET status = ?, attempts = ?, last_status = ?, last_error = ?,
       next_attempt_at = ?, delivered_at = ? WHERE seq = ?`,
  );
  const page = db.prepare<[string, number, number], DeliveryRow>(
    'SELECT * FROM webhook_deliveries WHERE subscription_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?',
  );
  const count = db.prepare<[string], { n: number }>(
    'SELECT COUNT(*) AS n FROM webhook_deliveries WHERE subscription_id = ?',
  );
  const removeOf = db.prepare('DELETE FROM webhook_deliveries WHERE subscription_id = ?');
  const pruneFinished = db.prepare(
    "DELETE FROM webhook_deliveries WHERE status <> 'pending' AND created_at < ?",
  );
  /** Claimed rows: seq → until when (ms since the epoch). */
  const claims = new Map<number, number>();

  return {
    facts: async (documentId) => facts.get(documentId),
    async enqueueOnce(messageId, documentId, documentFacts, rows, nowMs) {
      const apply = () => {
        facts.put(documentId, documentFacts);
        for (const row of rows) insert.run(...newDeliveryValues(row, nowMs));
      };
      // Nothing to deliver: the facts need no fsync of their own (a power loss may take the newest
      // back, which can only blur the next state change of that document).
      if (rows.length === 0) applyOnce(db, CONSUMER, messageId, apply);
      else await applyOnceDurably(db, CONSUMER, messageId, apply);
    },
    async claim(nowMs, limit) {
      // Rows this process claimed may come first: ask for as many more.
      const rows = due
        .all(nowMs, limit + claims.size)
        .filter((r) => (claims.get(r.seq) ?? 0) <= nowMs)
        .slice(0, limit);
      for (const r of rows) claims.set(r.seq, nowMs + claimMs);
      return rows.map(pendingFromRow);
    },
    nextDueAt: async () => nextDue.get()?.at ?? undefined,
    async record(seq, next) {
      update.run(...recordedValues(seq, next));
      claims.delete(seq);
    },
    log: async (subscriptionId, first, pageSize) => ({
      total: count.get(subscriptionId)?.n ?? 0,
      page: page.all(subscriptionId, pageSize, first).map(logEntryFromRow),
    }),
    async removeOf(subscriptionId) {
      removeOf.run(subscriptionId);
    },
    pruneFinished: async (beforeMs) => pruneFinished.run(new Date(beforeMs).toISOString()).changes,
  };
}
