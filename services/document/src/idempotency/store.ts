/**
 * Where the document service keeps what an `Idempotency-Key` answered: one row per principal and key,
 * `running` while the first request runs, then `done` with its body fingerprint and a reference to its
 * answer (status, a few headers, the document's id and revision: the replay reads the document at that
 * revision again, so a row holds a few hundred bytes whatever the document's size). Rows live 24
 * hours, and each caller (service account, whoever it acts as) holds at most `keysPerCaller` rows and
 * `bytesPerCaller` bytes of them: past that a new key is refused until its oldest row expires. In
 * the service's local database (a file in its data directory), so a restart keeps them; every gateway
 * forwards to this one service, so all of them see the same rows.
 */
import type { LocalDb } from '@docflow/kit/eventsourcing';

/** How long a key's answer is kept and replayed. */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 1000;

export interface IdempotencyBounds {
  /** Rows (keys) one caller may hold within KEY_LIFETIME_MS. */
  keysPerCaller: number;
  /** Bytes of rows (key, scope, fingerprint, answer) one caller may hold within KEY_LIFETIME_MS. */
  bytesPerCaller: number;
}

/**
 * A keyed write every 4.3 s around the clock per service account (whichever users it acts for); a row
 * takes 200–700 bytes (a 255-character key at most), so the bytes bound only bites for long keys.
 */
export const DEFAULT_BOUNDS: IdempotencyBounds = { keysPerCaller: 20_000, bytesPerCaller: 8 * 1024 * 1024 };

/** A kept answer: every keyed route answers the document, so a replay reads it at `doc.rev` again. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  doc: { id: string; rev: number };
}

export type Begun =
  | { kind: 'started' }
  | { kind: 'running' }
  | { kind: 'done'; fingerprint: string; answer: StoredAnswer }
  /** The caller holds its bound of keys: none is claimed; one is free again in `retryAfterSeconds`. */
  | { kind: 'full'; retryAfterSeconds: number };

export interface IdempotencyStore {
  /**
   * Claims the key of `scope` (a principal of `caller`) for a new request, or says it is taken (still
   * running, or done with its answer) or that the caller holds its bound of keys.
   */
  begin(caller: string, scope: string, key: string, now?: number): Begun;
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

interface Held {
  keys: number;
  bytes: number;
  oldest: number | null;
}

export function idempotencyStore(db: LocalDb, bounds: IdempotencyBounds = DEFAULT_BOUNDS): IdempotencyStore {
  // The table before the bound kept whole answers (a document each): its rows go, which frees their
  // space and costs only replays of keys used in the day before the upgrade.
  db.exec('DROP TABLE IF EXISTS idempotency_keys');
  db.exec(`CREATE TABLE IF NOT EXISTS idempotency_answers (
    scope TEXT NOT NULL, key TEXT NOT NULL, caller TEXT NOT NULL, state TEXT NOT NULL,
    fingerprint TEXT, answer TEXT, bytes INTEGER NOT NULL, created_at INTEGER NOT NULL,
    PRIMARY KEY (scope, key)
  ) WITHOUT ROWID`);
  db.exec('CREATE INDEX IF NOT EXISTS idempotency_answers_created ON idempotency_answers (created_at)');
  db.exec(
    'CREATE INDEX IF NOT EXISTS idempotency_answers_caller ON idempotency_answers (caller, created_at, bytes)',
  );
  // Opened as the process starts: no request of this process runs yet, and one that ran in an
  // earlier process will never finish, so its claim is let go (its client's retry runs it anew).
  db.exec("DELETE FROM idempotency_answers WHERE state = 'running'");
  const select = db.prepare<[string, string], Row>(
    'SELECT state, fingerprint, answer, created_at FROM idempotency_answers WHERE scope = ? AND key = ?',
  );
  const held = db.prepare<[string, number], Held>(
    `SELECT count(*) AS keys, coalesce(sum(bytes), 0) AS bytes, min(created_at) AS oldest
     FROM idempotency_answers WHERE caller = ? AND created_at >= ?`,
  );
  const claim = db.prepare(
    `INSERT INTO idempotency_answers (scope, key, caller, state, bytes, created_at)
     VALUES (?, ?, ?, 'running', ?, ?)
     ON CONFLICT (scope, key) DO UPDATE SET caller = excluded.caller, state = 'running', fingerprint = NULL,
     answer = NULL, bytes = excluded.bytes, created_at = excluded.created_at`,
  );
  const done = db.prepare(
    `UPDATE idempotency_answers SET state = 'done', fingerprint = ?, answer = ?, bytes = ?
     WHERE scope = ? AND key = ?`,
  );
  const remove = db.prepare('DELETE FROM idempotency_answers WHERE scope = ? AND key = ?');
  const prune = db.prepare('DELETE FROM idempotency_answers WHERE created_at < ?');
  let prunedAt = 0;

  const bytesOf = (...texts: string[]) => texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0);

  const beginTx = db.transaction((caller: string, scope: string, key: string, now: number): Begun => {
    if (now - prunedAt > PRUNE_EVERY_MS) {
      prune.run(now - KEY_LIFETIME_MS);
      prunedAt = now;
    }
    const since = now - KEY_LIFETIME_MS;
    const row = select.get(scope, key);
    if (row && row.created_at >= since) {
      if (row.state === 'running') return { kind: 'running' };
      return { kind: 'done', fingerprint: row.fingerprint!, answer: JSON.parse(row.answer!) as StoredAnswer };
    }
    const bytes = bytesOf(scope, key);
    const { keys, bytes: heldBytes, oldest } = held.get(caller, since)!;
    if (keys >= bounds.keysPerCaller || heldBytes + bytes > bounds.bytesPerCaller) {
      const freeAt = (oldest ?? now) + KEY_LIFETIME_MS;
      return { kind: 'full', retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now) / 1000)) };
    }
    claim.run(scope, key, caller, bytes, now);
    return { kind: 'started' };
  });

  return {
    begin: (caller, scope, key, now = Date.now()) => beginTx(caller, scope, key, now),
    finish(scope, key, fingerprint, answer) {
      const json = JSON.stringify(answer);
      done.run(fingerprint, json, bytesOf(scope, key, fingerprint, json), scope, key);
    },
    release(scope, key) {
      remove.run(scope, key);
    },
  };
}
