/**
 * The webhooks service's state in its schema of the shared PostgreSQL event store, for several
 * processes: subscriptions, the outbox, the mapping's per-document facts and the handled-message marks.
 * Each bus message is written once, in one transaction (its mark first, so a redelivery to another
 * process waits for the first and then writes nothing). A row is sent by the process that claims it:
 * the claim takes due rows with `FOR UPDATE SKIP LOCKED` and holds them for `claimMs`, so two processes
 * never send one row at the same time; a row whose claimer died is sent again once its claim lapsed,
 * with the same `webhook-id` (at least once, as after a crash of one process).
 */
import type { SharedSql } from '@docflow/eventstore';
import type { DocumentFacts } from './event-mapping';
import {
  type DeliveryRow,
  logEntryFromRow,
  newDeliveryValues,
  pendingFromRow,
  recordedValues,
} from './outbox';
import { type SubscriptionRow, subscriptionFromRow } from './subscriptions';
import type { Outbox, SubscriptionStore, WebhooksStore } from './webhooks-store';

export function postgresWebhooksStore(sql: SharedSql, claimMs: number): WebhooksStore {
  const t = {
    subscriptions: `${sql.schema}.webhook_subscriptions`,
    deliveries: `${sql.schema}.webhook_deliveries`,
    documents: `${sql.schema}.webhook_documents`,
    handled: `${sql.schema}.webhook_handled`,
  };
  let created: Promise<unknown> | undefined;
  /** The tables, created once per process; two processes creating them at once take turns. */
  function ready(): Promise<unknown> {
    created ??= sql
      .transaction(async (query) => {
        await query("SELECT pg_advisory_xact_lock(hashtext('docflow-webhooks-tables'))");
        await query(`CREATE TABLE IF NOT EXISTS ${t.subscriptions} (
          id text PRIMARY KEY, url text NOT NULL, event_types text NOT NULL, description text,
          secret text NOT NULL, created_at text NOT NULL)`);
        await query(`CREATE TABLE IF NOT EXISTS ${t.deliveries} (
          seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          subscription_id text NOT NULL, source_id text NOT NULL, webhook_id text NOT NULL,
          document_id text NOT NULL, event_type text NOT NULL, payload text NOT NULL,
          status text NOT NULL DEFAULT 'pending', attempts integer NOT NULL DEFAULT 0,
          last_status integer, last_error text, next_attempt_at bigint, delivered_at text,
          created_at text NOT NULL, claimed_until bigint NOT NULL DEFAULT 0,
          UNIQUE (subscription_id, source_id))`);
        await query(`CREATE INDEX IF NOT EXISTS webhook_deliveries_line
          ON ${t.deliveries} (subscription_id, document_id, seq) WHERE status = 'pending'`);
        await query(`CREATE INDEX IF NOT EXISTS webhook_deliveries_due
          ON ${t.deliveries} (next_attempt_at) WHERE status = 'pending'`);
        await query(
          `CREATE INDEX IF NOT EXISTS webhook_deliveries_log ON ${t.deliveries} (subscription_id, seq)`,
        );
        await query(`CREATE INDEX IF NOT EXISTS webhook_deliveries_finished
          ON ${t.deliveries} (created_at) WHERE status <> 'pending'`);
        await query(
          `CREATE TABLE IF NOT EXISTS ${t.documents} (document_id text PRIMARY KEY, facts text NOT NULL)`,
        );
        await query(`CREATE TABLE IF NOT EXISTS ${t.handled} (
          message_id text PRIMARY KEY, handled_at bigint NOT NULL)`);
      })
      .catch((error: unknown) => {
        created = undefined;
        throw error;
      });
    return created;
  }
  const query = async <R extends Record<string, unknown>>(text: string, values?: unknown[]) => {
    await ready();
    return sql.query<R>(text, values);
  };

  // Read for every document message: not cached, so a subscription made through another process counts at once.
  const subscriptions: SubscriptionStore = {
    async add(s) {
      await query(
        `INSERT INTO ${t.subscriptions} (id, url, event_types, description, secret, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [s.id, s.url, JSON.stringify(s.eventTypes), s.description ?? null, s.secret, s.createdAt],
      );
    },
    async list() {
      const { rows } = await query<SubscriptionRow & Record<string, unknown>>(
        `SELECT * FROM ${t.subscriptions} ORDER BY created_at, id`,
      );
      return rows.map(subscriptionFromRow);
    },
    async get(id) {
      const { rows } = await query<SubscriptionRow & Record<string, unknown>>(
        `SELECT * FROM ${t.subscriptions} WHERE id = $1`,
        [id],
      );
      return rows[0] && subscriptionFromRow(rows[0]);
    },
    async delete(id) {
      return (await query(`DELETE FROM ${t.subscriptions} WHERE id = $1`, [id])).rowCount > 0;
    },
  };

  type Row = DeliveryRow & Record<string, unknown>;
  const outbox: Outbox = {
    async facts(documentId) {
      const { rows } = await query<{ facts: string }>(
        `SELECT facts FROM ${t.documents} WHERE document_id = $1`,
        [documentId],
      );
      return rows[0] && (JSON.parse(rows[0].facts) as DocumentFacts);
    },
    async enqueueOnce(messageId, documentId, facts, rows, nowMs) {
      await ready();
      await sql.transaction(async (q) => {
        const mark = await q(
          `INSERT INTO ${t.handled} (message_id, handled_at) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
          [messageId, nowMs],
        );
        if (mark.rowCount === 0) return;
        await q(
          `INSERT INTO ${t.documents} (document_id, facts) VALUES ($1, $2)
           ON CONFLICT (document_id) DO UPDATE SET facts = EXCLUDED.facts`,
          [documentId, JSON.stringify(facts)],
        );
        for (const row of rows)
          await q(
            `INSERT INTO ${t.deliveries} (subscription_id, source_id, webhook_id, document_id, event_type, payload,
               next_attempt_at, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
            newDeliveryValues(row, nowMs),
          );
      });
    },
    async claim(nowMs, limit) {
      const { rows } = await query<Row>(
        `UPDATE ${t.deliveries} SET claimed_until = $1 + $3 WHERE seq IN (
           SELECT d.seq FROM ${t.deliveries} d
            WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND d.claimed_until <= $1
              AND NOT EXISTS (SELECT 1 FROM ${t.deliveries} e
                               WHERE e.status = 'pending' AND e.subscription_id = d.subscription_id
                                 AND e.document_id = d.document_id AND e.seq < d.seq)
            ORDER BY d.next_attempt_at, d.seq LIMIT $2
            FOR UPDATE SKIP LOCKED)
         RETURNING *`,
        [nowMs, limit, claimMs],
      );
      return rows
        .map(pendingFromRow)
        .sort((a, b) => (a.nextAttemptAt ?? 0) - (b.nextAttemptAt ?? 0) || a.seq - b.seq);
    },
    async nextDueAt() {
      const { rows } = await query<{ at: string | null }>(
        `SELECT MIN(next_attempt_at) AS at FROM ${t.deliveries} WHERE status = 'pending'`,
      );
      return rows[0]?.at == null ? undefined : Number(rows[0].at);
    },
    async record(seq, next) {
      await query(
        `UPDATE ${t.deliveries} SET status = $1, attempts = $2, last_status = $3, last_error = $4,
           next_attempt_at = $5, delivered_at = $6, claimed_until = 0 WHERE seq = $7`,
        recordedValues(seq, next),
      );
    },
    async log(subscriptionId, first, pageSize) {
      const [{ rows: counted }, { rows }] = await Promise.all([
        query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t.deliveries} WHERE subscription_id = $1`, [
          subscriptionId,
        ]),
        query<Row>(
          `SELECT * FROM ${t.deliveries} WHERE subscription_id = $1 ORDER BY seq DESC LIMIT $2 OFFSET $3`,
          [subscriptionId, pageSize, first],
        ),
      ]);
      return { total: counted[0]?.n ?? 0, page: rows.map(logEntryFromRow) };
    },
    async removeOf(subscriptionId) {
      await query(`DELETE FROM ${t.deliveries} WHERE subscription_id = $1`, [subscriptionId]);
    },
    async pruneFinished(beforeMs) {
      // The handled marks go with the log: a message redelivered after that long is not expected.
      await query(`DELETE FROM ${t.handled} WHERE handled_at < $1`, [beforeMs]);
      const { rowCount } = await query(
        `DELETE FROM ${t.deliveries} WHERE status <> 'pending' AND created_at < $1`,
        [new Date(beforeMs).toISOString()],
      );
      return rowCount;
    },
  };
  return { subscriptions, outbox };
}
