/**
 * The service lease on PostgreSQL: one row per lease name in the service's schema (`leases`, created
 * with the events table). Claiming is one upsert that only takes a row that is free, expired or the
 * claimer's own, so two processes never both hold it; the server's clock alone decides expiry.
 */
import type { ServiceLease } from './port';
import type { SharedSql } from './shared-sql';

type LeaseRow = { position: string | null };

export function postgresServiceLease(table: string, ttlMs: number, sql: SharedSql): ServiceLease {
  return {
    ttlMs,
    async claim(name, holder) {
      const { rows } = await sql.query<LeaseRow>(
        `INSERT INTO ${table} (name, holder, expires_at)
         VALUES ($1, $2, now() + $3 * interval '1 millisecond')
         ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
           WHERE ${table}.holder = EXCLUDED.holder OR ${table}.expires_at < now()
         RETURNING position`,
        [name, holder, ttlMs],
      );
      const row = rows[0];
      return row ? { position: row.position ?? undefined } : false;
    },
    async renew(name, holder, position) {
      const { rowCount } = await sql.query<LeaseRow>(
        `UPDATE ${table} SET expires_at = now() + $3 * interval '1 millisecond',
           position = COALESCE($4, position)
         WHERE name = $1 AND holder = $2`,
        [name, holder, ttlMs, position ?? null],
      );
      return rowCount === 1;
    },
    async release(name, holder, position) {
      await sql.query<LeaseRow>(
        `UPDATE ${table} SET expires_at = '-infinity', position = COALESCE($3, position)
         WHERE name = $1 AND holder = $2`,
        [name, holder, position ?? null],
      );
    },
  };
}
