/**
 * The key store in identity's schema of the shared PostgreSQL event store, for several identity
 * processes: a key made by one is the key of every other, and an erasure by one is every other's.
 *
 * Each process keeps the keys it read for at most `cacheMs` (KEY_CACHE_MS), then reads them again: so
 * a key erased through another process is used (and held in this one's memory) for at most that long
 * after the erasure — its folds read the account as erased at once anyway, from the stream's
 * `AccountErased`. Bounded rather than invalidated through the bus or the store's subscription: both
 * can lag without bound (a long transaction holds every PostgreSQL subscription back), a clock does not.
 * The deployment's claim secret never changes and is kept.
 *
 * What PostgreSQL keeps of a shredded key: the row's old version stays in the table's pages until
 * VACUUM reuses them, and in the WAL until it is recycled (and in WAL archives and base backups until
 * they expire): the erasure is complete once those have gone, as for a backup (README, Personal data).
 */
import { randomBytes } from 'node:crypto';
import type { SharedSql } from '@docflow/eventstore';
import { erasedRejection, KEY_BYTES, type KeyStore, type KeyStoreRows } from './key-store';

/** How long a process uses a key it read before reading it again (ms). */
export const KEY_CACHE_MS = 5_000;
const CACHE_ENTRIES = 10_000;

export interface PostgresKeyStoreOptions {
  /**
   * Rows a process kept in its own `keys.db` before the key store moved here (a version before this
   * one on PostgreSQL), copied in before the store is first used; `remove` once they are committed.
   * A row the schema holds already wins: an erasure made here stays made.
   */
  carryOver?: () => { rows: KeyStoreRows; remove(): void } | undefined;
  cacheMs?: number;
  /** The clock of the cache (tests move it). */
  now?: () => number;
}

type KeyRow = { key: Buffer | null };

export function postgresKeyStore(sql: SharedSql, options: PostgresKeyStoreOptions = {}): KeyStore {
  const cacheMs = options.cacheMs ?? KEY_CACHE_MS;
  const now = options.now ?? Date.now;
  const keys = `${sql.schema}.person_keys`;
  const secrets = `${sql.schema}.key_store_secrets`;
  let created: Promise<unknown> | undefined;
  let carried: ReturnType<NonNullable<PostgresKeyStoreOptions['carryOver']>>;
  /** The tables, created (and filled from `carryOver`) once per process; two processes take turns. */
  function ready(): Promise<unknown> {
    created ??= sql
      .transaction(async (query) => {
        await query("SELECT pg_advisory_xact_lock(hashtext('docflow-key-store-tables'))");
        await query(`CREATE TABLE IF NOT EXISTS ${keys} (
          account_id text PRIMARY KEY, key bytea, erased_at timestamptz)`);
        await query(`CREATE TABLE IF NOT EXISTS ${secrets} (name text PRIMARY KEY, value bytea NOT NULL)`);
        carried = options.carryOver?.();
        for (const row of carried?.rows.keys ?? [])
          await query(
            `INSERT INTO ${keys} (account_id, key, erased_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
            [row.account_id, row.key, row.erased_at],
          );
        for (const row of carried?.rows.secrets ?? [])
          await query(`INSERT INTO ${secrets} (name, value) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
            row.name,
            row.value,
          ]);
      })
      .then(() => carried?.remove())
      .catch((error: unknown) => {
        created = undefined;
        throw error;
      });
    return created;
  }

  // Insertion order is reading order: the oldest entries are at the front, and leave first.
  const cache = new Map<string, { key: Buffer; readAt: number }>();
  function cached(accountId: string): Buffer | undefined {
    const at = now();
    for (const [id, entry] of cache) {
      if (at - entry.readAt < cacheMs && cache.size <= CACHE_ENTRIES) break;
      cache.delete(id);
    }
    return cache.get(accountId)?.key;
  }
  function remember(accountId: string, key: Buffer): Buffer {
    cache.delete(accountId);
    cache.set(accountId, { key, readAt: now() });
    return key;
  }
  /** The account's row: its key, null once erased; undefined when there is none. */
  async function stored(accountId: string): Promise<Buffer | null | undefined> {
    await ready();
    const { rows } = await sql.query<KeyRow>(`SELECT key FROM ${keys} WHERE account_id = $1`, [accountId]);
    return rows[0]?.key;
  }
  let claims: Buffer | undefined;

  return {
    async keyFor(accountId) {
      const known = cached(accountId) ?? (await stored(accountId));
      if (known) return remember(accountId, known);
      if (known === null) throw erasedRejection(accountId);
      // Two processes making the first key at once: one insert wins, both read its key.
      await sql.query(`INSERT INTO ${keys} (account_id, key) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
        accountId,
        randomBytes(KEY_BYTES),
      ]);
      const made = await stored(accountId);
      if (!made) throw erasedRejection(accountId);
      return remember(accountId, made);
    },
    async existingKey(accountId) {
      const known = cached(accountId) ?? (await stored(accountId));
      return known ? remember(accountId, known) : undefined;
    },
    async shred(accountId) {
      cache.delete(accountId);
      await ready();
      await sql.query(
        `INSERT INTO ${keys} (account_id, key, erased_at) VALUES ($1, NULL, now())
         ON CONFLICT (account_id) DO UPDATE SET key = NULL, erased_at = COALESCE(${keys}.erased_at, now())`,
        [accountId],
      );
    },
    async wasErased(accountId) {
      await ready();
      const { rows } = await sql.query(
        `SELECT 1 FROM ${keys} WHERE account_id = $1 AND erased_at IS NOT NULL`,
        [accountId],
      );
      return rows.length > 0;
    },
    async claimSecret() {
      if (claims) return claims;
      await ready();
      await sql.query(
        `INSERT INTO ${secrets} (name, value) VALUES ('email-claims', $1) ON CONFLICT DO NOTHING`,
        [randomBytes(KEY_BYTES)],
      );
      const { rows } = await sql.query<{ value: Buffer }>(
        `SELECT value FROM ${secrets} WHERE name = 'email-claims'`,
      );
      claims = rows[0]!.value;
      return claims;
    },
    // The connections are the event store's: it closes them.
    close: () => cache.clear(),
  };
}
