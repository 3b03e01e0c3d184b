/**
 * The idempotency store in the service's schema of the shared PostgreSQL event store, for several
 * processes serving the documents: a retry that reaches another process finds the first answer, and a
 * key is claimed once among all of them (each claim in a transaction holding the caller's advisory
 * lock, so the caller's bound is counted by one claim at a time). A process that dies mid-request
 * leaves its claim running; it lapses after RUNNING_CLAIM_MS (store.ts).
 */
import type { SharedSql } from '@docflow/eventstore';
import {
  bytesOf,
  DEFAULT_BOUNDS,
  decideBegin,
  type HeldByCaller,
  type IdempotencyBounds,
  type IdempotencyStore,
  KEY_LIFETIME_MS,
  type KeyRow,
  PRUNE_EVERY_MS,
} from './store';

export function postgresIdempotencyStore(
  sql: SharedSql,
  bounds: IdempotencyBounds = DEFAULT_BOUNDS,
): IdempotencyStore {
  const table = `${sql.schema}.idempotency_answers`;
  let created: Promise<unknown> | undefined;
  /** The table, created once per process; two processes creating it at once take turns. */
  function ready(): Promise<unknown> {
    created ??= sql
      .transaction(async (query) => {
        await query("SELECT pg_advisory_xact_lock(hashtext('docflow-idempotency-table'))");
        await query(`CREATE TABLE IF NOT EXISTS ${table} (
          scope text NOT NULL, key text NOT NULL, caller text NOT NULL, state text NOT NULL,
          fingerprint text, answer text, bytes integer NOT NULL, created_at bigint NOT NULL,
          PRIMARY KEY (scope, key))`);
        await query(`CREATE INDEX IF NOT EXISTS idempotency_answers_caller ON ${table} (caller, created_at)`);
        await query(`CREATE INDEX IF NOT EXISTS idempotency_answers_created ON ${table} (created_at)`);
      })
      .catch((error: unknown) => {
        created = undefined;
        throw error;
      });
    return created;
  }
  let prunedAt = 0;

  return {
    async begin(caller, scope, key, now = Date.now()) {
      await ready();
      if (now - prunedAt > PRUNE_EVERY_MS) {
        prunedAt = now;
        await sql.query(`DELETE FROM ${table} WHERE created_at < $1`, [now - KEY_LIFETIME_MS]);
      }
      const bytes = bytesOf(scope, key);
      return sql.transaction(async (query) => {
        await query('SELECT pg_advisory_xact_lock(hashtext($1))', [`docflow-idempotency ${caller}`]);
        const { rows } = await query<KeyRow>(
          `SELECT state, fingerprint, answer, created_at::float8 AS created_at FROM ${table}
           WHERE scope = $1 AND key = $2`,
          [scope, key],
        );
        const { rows: held } = await query<HeldByCaller>(
          `SELECT count(*)::int AS keys, coalesce(sum(bytes), 0)::float8 AS bytes, min(created_at)::float8 AS oldest
           FROM ${table} WHERE caller = $1 AND created_at >= $2`,
          [caller, now - KEY_LIFETIME_MS],
        );
        const decided = decideBegin(rows[0], () => held[0]!, bytes, bounds, now);
        if (decided.kind !== 'claim') return decided;
        await query(
          `INSERT INTO ${table} (scope, key, caller, state, bytes, created_at) VALUES ($1, $2, $3, 'running', $4, $5)
           ON CONFLICT (scope, key) DO UPDATE SET caller = EXCLUDED.caller, state = 'running', fingerprint = NULL,
           answer = NULL, bytes = EXCLUDED.bytes, created_at = EXCLUDED.created_at`,
          [scope, key, caller, bytes, now],
        );
        return { kind: 'started' as const };
      });
    },
    async finish(scope, key, fingerprint, answer) {
      const json = JSON.stringify(answer);
      await sql.query(
        `UPDATE ${table} SET state = 'done', fingerprint = $1, answer = $2, bytes = $3 WHERE scope = $4 AND key = $5`,
        [fingerprint, json, bytesOf(scope, key, fingerprint, json), scope, key],
      );
    },
    async release(scope, key) {
      await sql.query(`DELETE FROM ${table} WHERE scope = $1 AND key = $2`, [scope, key]);
    },
  };
}
