/**
 * The gateway's read model of sessions, fed by identity's session events (the `sessions` topic) and by
 * its account events (the `identity` topic), so a request with a session cookie is authenticated with
 * no call to another service, by whichever gateway it reaches.
 *
 * A person's deactivation or erasure sets a cut-off: every session of theirs started at or before it
 * is gone, and stays gone even when its SessionStarted arrives after the cut-off (the two topics keep
 * no order between them) or the person is activated again. It also keeps the sign-in records an
 * auditor lists (who, when, from where; never a password or a token).
 */
import { EventEmitter } from 'node:events';
import type { DeliveredMessage } from '@docflow/bus';
import {
  EventEnvelope,
  type LiveSession,
  parseSessionEvent,
  SESSION_STREAM_PREFIX,
  type SignInRecord,
  sessionStream,
} from '@docflow/contracts';
import { applyOnceDurably, type LocalDb } from '@docflow/kit/eventsourcing';
import { waitUntil } from './wait-until';

export interface SessionRecord {
  id: string;
  accountId: string;
  started: string;
  expires: string;
  /** Milliseconds since the epoch, as this gateway last saw the session used. */
  lastUsed: number;
  from: string;
  userAgent: string;
}

interface SessionRow {
  id: string;
  account_id: string;
  started: string;
  expires: string;
  last_used: number;
  from_addr: string;
  user_agent: string;
}

interface SignInRow {
  type: SignInRecord['type'];
  time: string;
  account_id: string | null;
  session_id: string;
  from_addr: string;
  user_agent: string;
  reason: string | null;
  by: string | null;
}

const SESSIONS_CONSUMER = 'gateway-sessions';
const CUT_OFFS_CONSUMER = 'gateway-session-cut-offs';

const toSession = (r: SessionRow): SessionRecord => ({
  id: r.id,
  accountId: r.account_id,
  started: r.started,
  expires: r.expires,
  lastUsed: r.last_used,
  from: r.from_addr,
  userAgent: r.user_agent,
});

const toSignIn = (r: SignInRow): SignInRecord => ({
  type: r.type,
  time: r.time,
  account: r.account_id,
  session: r.session_id,
  from: r.from_addr,
  userAgent: r.user_agent,
  ...(r.reason ? { reason: r.reason } : {}),
  ...(r.by ? { by: r.by } : {}),
});

export interface SessionsReadModel {
  byTokenHash(hash: string): SessionRecord | undefined;
  byId(id: string): SessionRecord | undefined;
  /** The live sessions of an account, newest first. */
  ofAccount(accountId: string): SessionRecord[];
  /**
   * Takes in a live session identity answered for (one the bus has not brought here yet), unless a
   * cut-off here ended it.
   */
  remember(id: string, session: LiveSession): void;
  /** Records that the session was used at `at` (ms). */
  touch(id: string, at: number): void;
  signIns(query: { account?: string; limit: number; offset: number }): {
    total: number;
    records: SignInRecord[];
  };
  /** Bus handler of the `sessions` topic. */
  handleSessionEvent(message: DeliveredMessage): Promise<void>;
  /** Bus handler of the `identity` topic: a deactivation or erasure ends the account's sessions. */
  handleAccountEvent(message: DeliveredMessage): Promise<void>;
  /** Resolves true once session `id` is live (`live`) or gone (`!live`) here, false after `timeoutMs`. */
  waitFor(id: string, live: boolean, timeoutMs: number): Promise<boolean>;
}

function migrate(db: LocalDb): void {
  db.exec(`CREATE TABLE IF NOT EXISTS gateway_sessions (
      id TEXT PRIMARY KEY, account_id TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE,
      started TEXT NOT NULL, expires TEXT NOT NULL, last_used INTEGER NOT NULL,
      from_addr TEXT NOT NULL, user_agent TEXT NOT NULL);
    CREATE INDEX IF NOT EXISTS gateway_sessions_account ON gateway_sessions (account_id);
    CREATE INDEX IF NOT EXISTS gateway_sessions_expires ON gateway_sessions (expires);
    CREATE TABLE IF NOT EXISTS gateway_session_cut_offs (account_id TEXT PRIMARY KEY, cut_off TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS gateway_sign_ins (
      seq INTEGER PRIMARY KEY AUTOINCREMENT, type TEXT NOT NULL, time TEXT NOT NULL,
      account_id TEXT, session_id TEXT NOT NULL, from_addr TEXT NOT NULL, user_agent TEXT NOT NULL,
      reason TEXT, by TEXT);
    CREATE INDEX IF NOT EXISTS gateway_sign_ins_account ON gateway_sign_ins (account_id, seq)`);
}

export function createSessionsReadModel(db: LocalDb): SessionsReadModel {
  migrate(db);
  const byHash = db.prepare<[string], SessionRow>('SELECT * FROM gateway_sessions WHERE token_hash = ?');
  const byId = db.prepare<[string], SessionRow>('SELECT * FROM gateway_sessions WHERE id = ?');
  const ofAccount = db.prepare<[string], SessionRow>(
    'SELECT * FROM gateway_sessions WHERE account_id = ? ORDER BY started DESC, id DESC',
  );
  const insert = db.prepare(
    `INSERT OR IGNORE INTO gateway_sessions
      (id, account_id, token_hash, started, expires, last_used, from_addr, user_agent)
      VALUES (@id, @account_id, @token_hash, @started, @expires, @last_used, @from_addr, @user_agent)`,
  );
  const remove = db.prepare('DELETE FROM gateway_sessions WHERE id = ?');
  const removeExpired = db.prepare('DELETE FROM gateway_sessions WHERE expires < ?');
  const touch = db.prepare('UPDATE gateway_sessions SET last_used = ? WHERE id = ? AND last_used < ?');
  const cutOffOf = db.prepare<[string], { cut_off: string }>(
    'SELECT cut_off FROM gateway_session_cut_offs WHERE account_id = ?',
  );
  const setCutOff = db.prepare(
    `INSERT INTO gateway_session_cut_offs (account_id, cut_off) VALUES (?, ?)
      ON CONFLICT (account_id) DO UPDATE SET cut_off = max(cut_off, excluded.cut_off)`,
  );
  const removeUpTo = db.prepare('DELETE FROM gateway_sessions WHERE account_id = ? AND started <= ?');
  const record = db.prepare(
    `INSERT INTO gateway_sign_ins (type, time, account_id, session_id, from_addr, user_agent, reason, by)
      VALUES (@type, @time, @account_id, @session_id, @from_addr, @user_agent, @reason, @by)`,
  );
  const updates = new EventEmitter();
  updates.setMaxListeners(0);

  /** Inserts a session unless a deactivation or erasure of its person since its start ended it. */
  function insertSession(id: string, s: LiveSession): void {
    const cutOff = cutOffOf.get(s.accountId)?.cut_off;
    if (cutOff !== undefined && cutOff >= s.started) return;
    insert.run({
      id,
      account_id: s.accountId,
      token_hash: s.tokenHash,
      started: s.started,
      expires: s.expiresAt,
      last_used: Date.parse(s.started),
      from_addr: s.from,
      user_agent: s.userAgent,
    });
  }

  function applySessionEvent(envelope: EventEnvelope): void {
    const id = envelope.streamId.slice(SESSION_STREAM_PREFIX.length);
    const time = envelope.metadata.timestamp;
    const event = parseSessionEvent(envelope.type, envelope.data);
    const signIn = { time, session_id: id, reason: null, by: null };
    switch (event.type) {
      case 'SessionStarted': {
        const d = event.data;
        // Sessions past their absolute time-out are dead whatever else happens: each sign-in sweeps them.
        removeExpired.run(new Date().toISOString());
        insertSession(id, { ...d, started: time });
        record.run({
          ...signIn,
          type: 'SignedIn',
          account_id: d.accountId,
          from_addr: d.from,
          user_agent: d.userAgent,
        });
        break;
      }
      case 'SessionEnded': {
        remove.run(id);
        record.run({
          ...signIn,
          type: 'SignedOut',
          account_id: event.data.accountId,
          from_addr: event.data.from,
          user_agent: event.data.userAgent,
          reason: event.data.reason,
          by: event.data.by,
        });
        break;
      }
      case 'SignInFailed': {
        const d = event.data;
        record.run({
          ...signIn,
          type: 'SignInFailed',
          account_id: d.accountId,
          from_addr: d.from,
          user_agent: d.userAgent,
        });
        break;
      }
    }
  }

  function applyAccountEvent(envelope: EventEnvelope): void {
    const ends =
      envelope.type === 'AccountErased' ||
      (envelope.type === 'AccountActivationChanged' && envelope.data.active === false);
    if (!ends) return;
    const accountId = envelope.streamId.slice('account-'.length);
    setCutOff.run(accountId, envelope.metadata.timestamp);
    removeUpTo.run(accountId, envelope.metadata.timestamp);
  }

  const find = (row: SessionRow | undefined) => (row ? toSession(row) : undefined);
  const handled = async (message: DeliveredMessage, consumer: string, apply: (e: EventEnvelope) => void) => {
    const envelope = EventEnvelope.parse(message.value);
    if (await applyOnceDurably(db, consumer, envelope.id, () => apply(envelope)))
      updates.emit('changed', envelope.streamId);
  };

  return {
    byTokenHash: (hash) => find(byHash.get(hash)),
    byId: (id) => find(byId.get(id)),
    ofAccount: (accountId) => ofAccount.all(accountId).map(toSession),
    remember: insertSession,
    touch(id, at) {
      touch.run(at, id, at);
    },
    signIns({ account, limit, offset }) {
      const where = account ? 'WHERE account_id = ?' : '';
      const args = account ? [account] : [];
      const { n } = db.prepare(`SELECT count(*) AS n FROM gateway_sign_ins ${where}`).get(...args) as {
        n: number;
      };
      const rows = db
        .prepare(`SELECT * FROM gateway_sign_ins ${where} ORDER BY seq DESC LIMIT ? OFFSET ?`)
        .all(...args, limit, offset) as SignInRow[];
      return { total: n, records: rows.map(toSignIn) };
    },
    handleSessionEvent: (message) => handled(message, SESSIONS_CONSUMER, applySessionEvent),
    handleAccountEvent: (message) => handled(message, CUT_OFFS_CONSUMER, applyAccountEvent),
    waitFor: (id, live, timeoutMs) =>
      waitUntil(updates, sessionStream(id), () => (byId.get(id) !== undefined) === live, timeoutMs),
  };
}
