/**
 * Where the document service keeps what an `Idempotency-Key` answered: one row per principal and key,
 * `running` while the first request runs, then `done` with its body fingerprint and answer. Rows live
 * 24 hours. In the service's local database (a file in its data directory), so a restart keeps them;
 * every gateway forwards to this one service, so all of them see the same rows.
 */
import type { LocalDb } from '@docflow/kit/eventsourcing';

/** How long a key's answer is kept and replayed. */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 1000;

export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Begun =
  | { kind: 'started' }
  | { kind: 'running' }
  | { kind: 'done'; fingerprint: string; answer: StoredAnswer };

export interface IdempotencyStore {
  /** Claims the key for a new request, or says it is taken: still running, or done with its answer. */
  begin(scope: string, key: string, now?: number): Begun;
  /** The claimed request answered: kept for replay. */
  finish(scope: string, key: string, fingerprint: string, answer: StoredAnswer): void;
  /** The claimed request failed or was refused: the key is free again. */
  release(scope: string, key: string): void;
}

interface Row {
  state: 'running' | 'done';
  fingerprint: string | null;
  answer: string | null;
  created_at: number;
}

export function idempotencyStore(db: LocalDb): IdempotencyStore {
  db.exec(`CREATE TABLE IF NOT EXISTS idempotency_keys (
    scope TEXT NOT NULL, key TEXT NOT NULL, state TEXT NOT NULL, fingerprint TEXT, answer TEXT,
    created_at INTEGER NOT NULL, PRIMARY KEY (scope, key)
  ) WITHOUT ROWID`);
  db.exec('CREATE INDEX IF NOT EXISTS idempotency_keys_created ON idempotency_keys (created_at)');
  // Opened as the process starts: no request of this process runs yet, and one that ran in an
  // earlier process will never finish, so its claim is let go (its client's retry runs it anew).
  db.exec("DELETE FROM idempotency_keys WHERE state = 'running'");
  const select = db.prepare<[string, string], Row>(
    'SELECT state, fingerprint, answer, created_at FROM idempotency_keys WHERE scope = ? AND key = ?',
  );
  const claim = db.prepare(
    `INSERT INTO idempotency_keys (scope, key, state, created_at) VALUES (?, ?, 'running', ?)
     ON CONFLICT (scope, key) DO UPDATE SET state = 'running', fingerprint = NULL, answer = NULL,
     created_at = excluded.created_at`,
  );
  const done = db.prepare(
    `UPDATE idempotency_keys SET state = 'done', fingerprint = ?, answer = ? WHERE scope = ? AND key = ?`,
  );
  const remove = db.prepare('DELETE FROM idempotency_keys WHERE scope = ? AND key = ?');
  const prune = db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?');
  let prunedAt = 0;

  const beginTx = db.transaction((scope: string, key: string, now: number): Begun => {
    if (now - prunedAt > PRUNE_EVERY_MS) {
      prune.run(now - KEY_LIFETIME_MS);
      prunedAt = now;
    }
    const row = select.get(scope, key);
    if (row && row.created_at >= now - KEY_LIFETIME_MS) {
      if (row.state === 'running') return { kind: 'running' };
      return { kind: 'done', fingerprint: row.fingerprint!, answer: JSON.parse(row.answer!) as StoredAnswer };
    }
    claim.run(scope, key, now);
    return { kind: 'started' };
  });

  return {
    begin: (scope, key, now = Date.now()) => beginTx(scope, key, now),
    finish(scope, key, fingerprint, answer) {
      done.run(fingerprint, JSON.stringify(answer), scope, key);
    },
    release(scope, key) {
      remove.run(scope, key);
    },
  };
}
