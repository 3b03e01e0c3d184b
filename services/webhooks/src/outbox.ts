/**
 * The outbox of deliveries, in the service's local database: one row per subscription and webhook
 * event, written by the bus consumer before the bus message is acknowledged, sent by the delivery
 * worker. Per subscription and document only the oldest pending row is due: a later event waits
 * until the earlier one was delivered or given up.
 */
import { createHash } from 'node:crypto';
import type { WebhookDelivery, WebhookEventType } from '@docflow/contracts';
import type { LocalDb } from '@docflow/kit/eventsourcing';
import type { DeliveryState } from './delivery';
import type { MappedEvent } from './event-mapping';

/** A due row: what to send, and its state (delivery.ts). */
export interface PendingDelivery extends DeliveryState {
  seq: number;
  subscriptionId: string;
  webhookId: string;
  documentId: string;
  eventType: WebhookEventType;
  payload: string;
}

interface DeliveryRow {
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

export function outbox(db: LocalDb) {
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

  return {
    /** Adds a row per subscription and event; a row already there (a redelivered message) stays as it is. */
    enqueue(subscriptionId: string, event: MappedEvent, nowMs: number): void {
      insert.run(
        subscriptionId,
        event.sourceId,
        webhookMessageId(subscriptionId, event.sourceId),
        event.documentId,
        event.type,
        JSON.stringify(event.payload),
        nowMs,
        new Date(nowMs).toISOString(),
      );
    },
    /** Due rows, each the oldest pending one of its subscription and document, oldest due first. */
    due(nowMs: number, limit: number): PendingDelivery[] {
      return due.all(nowMs, limit).map((r) => ({
        seq: r.seq,
        subscriptionId: r.subscription_id,
        webhookId: r.webhook_id,
        documentId: r.document_id,
        eventType: r.event_type,
        payload: r.payload,
        status: r.status,
        attempts: r.attempts,
        lastStatus: r.last_status,
        lastError: r.last_error,
        nextAttemptAt: r.next_attempt_at,
        deliveredAt: r.delivered_at,
      }));
    },
    /** When the next pending row is due (ms since the epoch), if any is pending. */
    nextDueAt: (): number | undefined => nextDue.get()?.at ?? undefined,
    /** Stores a row's state after an attempt (decided by businessLogic.ts, evolved by delivery.ts). */
    record(seq: number, next: DeliveryState): void {
      update.run(
        next.status,
        next.attempts,
        next.lastStatus,
        next.lastError,
        next.nextAttemptAt,
        next.deliveredAt,
        seq,
      );
    },
    log(subscriptionId: string, first: number, pageSize: number): { total: number; page: WebhookDelivery[] } {
      return {
        total: count.get(subscriptionId)?.n ?? 0,
        page: page.all(subscriptionId, pageSize, first).map((r) => ({
          webhookId: r.webhook_id,
          eventType: r.event_type,
          documentId: r.document_id,
          status: r.status,
          attempts: r.attempts,
          lastStatus: r.last_status,
          lastError: r.last_error,
          nextAttemptAt: r.next_attempt_at === null ? null : new Date(r.next_attempt_at).toISOString(),
          deliveredAt: r.delivered_at,
          createdAt: r.created_at,
        })),
      };
    },
    removeOf: (subscriptionId: string) => {
      removeOf.run(subscriptionId);
    },
    /**
     * Forgets delivered and given-up rows created before `beforeMs` (the log's retention); pending ones
     * stay whatever their age. Returns how many went.
     */
    pruneFinished: (beforeMs: number): number => pruneFinished.run(new Date(beforeMs).toISOString()).changes,
  };
}
export type Outbox = ReturnType<typeof outbox>;
