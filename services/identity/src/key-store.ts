/**
 * The keys of persons' personal data (crypto-shredding): one random AES-256 key per account, and a
 * secret of the deployment that keys the e-mail claims. Two adapters: a SQLite file of identity's own
 * data directory (one process, below) and identity's schema on the shared PostgreSQL store, which
 * several identity processes share (key-store-postgres.ts); one contract (key-store-contract.ts).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { rejections } from '@docflow/contracts';
import { type LocalDb, openLocalDb } from '@docflow/kit/eventsourcing';

export const KEY_BYTES = 32;

export interface KeyStore {
  /** The account's key, made on first use; a rejection (409) once the account was erased. */
  keyFor(accountId: string): Promise<Buffer>;
  /** The account's key; undefined when it was erased (or never made). */
  existingKey(accountId: string): Promise<Buffer | undefined>;
  /** Deletes the key for good (idempotent). */
  shred(accountId: string): Promise<void>;
  /** True once the account's key was shredded (its tombstone is kept). */
  wasErased(accountId: string): Promise<boolean>;
  /** A secret of this deployment (not of a person), made on first use: it keys the e-mail claims. */
  claimSecret(): Promise<Buffer>;
  close(): void;
}

export const erasedRejection = (accountId: string) => rejections.conflict(`account ${accountId} was erased`);

interface Row {
  key: Buffer | null;
}

/** Where the key store beside a service's local database is (in memory when that one is). */
export const keyStoreFileBeside = (db: LocalDb): string =>
  db.memory ? ':memory:' : join(dirname(db.name), 'keys.db');

/** The key store beside a service's local database. */
export function keyStoreBeside(db: LocalDb): KeyStore {
  return openKeyStore(keyStoreFileBeside(db));
}

/** Every row of a key store file: keys (null once erased, with when) and the deployment's secrets. */
export interface KeyStoreRows {
  keys: { account_id: string; key: Buffer | null; erased_at: string | null }[];
  secrets: { name: string; value: Buffer }[];
}

/**
 * The rows of the key store file `file`, if there is one, and a way to delete the file once they are
 * kept elsewhere (with its WAL: no copy of a key stays behind to defeat a later erasure).
 */
export function keyStoreFileRows(file: string): { rows: KeyStoreRows; remove(): void } | undefined {
  if (file === ':memory:' || !existsSync(file)) return undefined;
  const db = openLocalDb(file);
  try {
    const has = (table: string) =>
      db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
    const rows: KeyStoreRows = {
      keys: has('person_keys')
        ? db
            .prepare<[], KeyStoreRows['keys'][number]>('SELECT account_id, key, erased_at FROM person_keys')
            .all()
        : [],
      secrets: has('secrets')
        ? db.prepare<[], KeyStoreRows['secrets'][number]>('SELECT name, value FROM secrets').all()
        : [],
    };
    return {
      rows,
      remove: () => {
        for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
      },
    };
  } finally {
    db.close();
  }
}

/**
 * The SQLite adapter: `keys.db` beside `local.db` (backed up with it, never published), every commit
 * fsynced. Erasing deletes the key and keeps a tombstone, so a key is never made again for an erased
 * account; the freed page is overwritten (`secure_delete`) and the WAL truncated, so no copy of the
 * key stays in the file. One process holds the file, so its cache is never stale.
 */
export function openKeyStore(file: string): KeyStore {
  const db = openLocalDb(file);
  db.pragma('synchronous = FULL');
  db.pragma('secure_delete = ON');
  db.exec(`CREATE TABLE IF NOT EXISTS person_keys (
    account_id TEXT PRIMARY KEY, key BLOB, erased_at TEXT);
    CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL)`);
  const selectSecret = db.prepare<[string], Buffer>('SELECT value FROM secrets WHERE name = ?').pluck();
  const insertSecret = db.prepare('INSERT OR IGNORE INTO secrets (name, value) VALUES (?, ?)');
  let claims: Buffer | undefined;
  const select = db.prepare<[string], Row>('SELECT key FROM person_keys WHERE account_id = ?');
  const insert = db.prepare('INSERT OR IGNORE INTO person_keys (account_id, key) VALUES (?, ?)');
  const shred = db.prepare(
    `INSERT INTO person_keys (account_id, key, erased_at) VALUES (?, NULL, ?)
     ON CONFLICT(account_id) DO UPDATE SET key = NULL, erased_at = COALESCE(erased_at, excluded.erased_at)`,
  );
  const erasedAt = db
    .prepare<[string], string | null>('SELECT erased_at FROM person_keys WHERE account_id = ?')
    .pluck();
  const cache = new Map<string, Buffer>();
  const existingKey = (accountId: string) => {
    const known = cache.get(accountId) ?? select.get(accountId)?.key ?? undefined;
    if (known) cache.set(accountId, known);
    return known;
  };
  return {
    async keyFor(accountId) {
      const known = existingKey(accountId);
      if (known) return known;
      if (select.get(accountId)) throw erasedRejection(accountId);
      insert.run(accountId, randomBytes(KEY_BYTES));
      return existingKey(accountId)!;
    },
    existingKey: async (accountId) => existingKey(accountId),
    async shred(accountId) {
      cache.delete(accountId);
      shred.run(accountId, new Date().toISOString());
      if (!db.memory) db.pragma('wal_checkpoint(TRUNCATE)');
    },
    wasErased: async (accountId) => (erasedAt.get(accountId) ?? null) !== null,
    async claimSecret() {
      if (!claims) {
        insertSecret.run('email-claims', randomBytes(KEY_BYTES));
        claims = selectSecret.get('email-claims')!;
      }
      return claims;
    },
    close: () => db.close(),
  };
}
