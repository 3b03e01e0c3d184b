/**
 * The idempotency store in the service's local database (a file in its data directory), so a restart
 * keeps the rows: for one process serving the documents, which every gateway forwards to.
 */
import type { LocalDb } from '@docflow/kit/eventsourcing';
import {
  type Begun,
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

export function sqliteIdempotencyStore(
  db: LocalDb,
  bounds: IdempotencyBounds = DEFAULT_BOUNDS,
): IdempotencyStore {
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
  const select = db.prepare<[string, string], KeyRow>(
    'SELECT state, fingerprint, answer, created_at FROM idempotency_answers WHERE scope = ? AND key = ?',
  );
  const held = db.prepare<[string, number], HeldByCaller>(
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

  const beginTx = db.transaction((caller: string, scope: string, key: string, now: number): Begun => {
    if (now - prunedAt > PRUNE_EVERY_MS) {
      prune.run(now - KEY_LIFETIME_MS);
      prunedAt = now;
    }
    const bytes = bytesOf(scope, key);
    const decided = decideBegin(
      select.get(scope, key),
      () => held.get(caller, now - KEY_LIFETIME_MS)!,
      bytes,
      bounds,
      now,
    );
    if (decided.kind !== 'claim') return decided;
    claim.run(scope, key, caller, bytes, now);
    return { kind: 'started' };
  });

  return {
    begin: async (caller, scope, key, now = Date.now()) => beginTx(caller, scope, key, now),
    async finish(scope, key, fingerprint, answer) {
      const json = JSON.stringify(answer);
      done.run(fingerprint, json, bytesOf(scope, key, fingerprint, json), scope, key);
    },
    async release(scope, key) {
      remove.run(scope, key);
    },
  };
}
