/**
 * The keys of persons' personal data (crypto-shredding): one random AES-256 key per account, in a
 * SQLite file of identity's own data directory (`keys.db` beside `local.db`; backed up with it, never
 * published). Every commit is fsynced. Erasing deletes the key and keeps a tombstone, so a key is
 * never made again for an erased account; the freed page is overwritten (`secure_delete`) and the WAL
 * truncated, so no copy of the key stays in the file.
 */
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { rejections } from '@docflow/contracts';
import { type LocalDb, openLocalDb } from '@docflow/kit/eventsourcing';

export interface KeyStore {
  /** The account's key, made on first use; a rejection (409) once the account was erased. */
  keyFor(accountId: string): Buffer;
  /** The account's key; undefined when it was erased (or never made). */
  existingKey(accountId: string): Buffer | undefined;
  /** Deletes the key for good (idempotent). */
  shred(accountId: string): void;
  /** True once the account's key was shredded (its tombstone is kept). */
  wasErased(accountId: string): boolean;
  /** A secret of this deployment (not of a person), made on first use: it keys the e-mail claims. */
  claimSecret(): Buffer;
  close(): void;
}

interface Row {
  key: Buffer | null;
}

/** The key store beside a service's local database (in memory when that one is). */
export function keyStoreBeside(db: LocalDb): KeyStore {
  return openKeyStore(db.memory ? ':memory:' : join(dirname(db.name), 'keys.db'));
}

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
  return {
    keyFor(accountId) {
      const known = cache.get(accountId) ?? select.get(accountId)?.key ?? undefined;
      if (known) return known;
      if (select.get(accountId)) throw rejections.conflict(`account ${accountId} was erased`);
      insert.run(accountId, randomBytes(32));
      const made = select.get(accountId)!.key!;
      cache.set(accountId, made);
      return made;
    },
    existingKey(accountId) {
      const known = cache.get(accountId) ?? select.get(accountId)?.key ?? undefined;
      if (known) cache.set(accountId, known);
      return known;
    },
    shred(accountId) {
      cache.delete(accountId);
      shred.run(accountId, new Date().toISOString());
      if (!db.memory) db.pragma('wal_checkpoint(TRUNCATE)');
    },
    wasErased: (accountId) => (erasedAt.get(accountId) ?? null) !== null,
    claimSecret() {
      if (!claims) {
        insertSecret.run('email-claims', randomBytes(32));
        claims = selectSecret.get('email-claims')!;
      }
      return claims;
    },
    close: () => db.close(),
  };
}
