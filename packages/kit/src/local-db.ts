/**
 * A service's small local database (SQLite, WAL, fsync on commit) for what is not an event:
 * relay checkpoints, the ids of messages already handled, and read models.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export type LocalDb = Database.Database;

export function openLocalDb(file: string): LocalDb {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.exec(`
    CREATE TABLE IF NOT EXISTS checkpoints (name TEXT PRIMARY KEY, position TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS handled_messages (
      consumer TEXT NOT NULL, message_id TEXT NOT NULL, PRIMARY KEY (consumer, message_id)
    ) WITHOUT ROWID;
  `);
  return db;
}

export interface CheckpointStore {
  load(name: string): string | undefined;
  save(name: string, position: string): void;
}

export function checkpointStore(db: LocalDb): CheckpointStore {
  const select = db.prepare<[string], { position: string }>(
    'SELECT position FROM checkpoints WHERE name = ?',
  );
  const upsert = db.prepare(
    'INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET position = excluded.position',
  );
  return {
    load: (name) => select.get(name)?.position,
    save: (name, position) => {
      upsert.run(name, position);
    },
  };
}

/**
 * Applies `apply` and records `messageId` as handled in one transaction, so a re-delivered message
 * changes nothing: exactly-once effect on top of at-least-once delivery. Returns false for a repeat.
 */
export function applyOnce(db: LocalDb, consumer: string, messageId: string, apply: () => void): boolean {
  const mark = db.prepare('INSERT OR IGNORE INTO handled_messages (consumer, message_id) VALUES (?, ?)');
  return db.transaction(() => {
    if (mark.run(consumer, messageId).changes === 0) return false;
    apply();
    return true;
  })();
}
