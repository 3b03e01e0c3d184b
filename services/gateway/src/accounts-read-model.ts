/**
 * The gateway's read model of accounts (key hashes, roles, active flag, persons' personal access
 * tokens), fed by the identity
 * service's events from the bus, so authenticating a request needs no call to another service. A new
 * or lost table is rebuilt from identity's durable streams (its accounts route): the bus cannot give
 * back what it delivered before (the in-process bus keeps nothing, a Kafka topic only its retention,
 * and a group resumes after its committed offset). It
 * holds no personal data: the events carry it sealed, and run-as by e-mail asks identity
 * (docs/decisions.md, "Personal data").
 */
import { EventEmitter } from 'node:events';
import type { DeliveredMessage } from '@docflow/bus';
import {
  type AccountsPage,
  EventEnvelope,
  type PersonalToken,
  type PersonalTokenFacts,
  parseStoredIdentityEvent,
  type Role,
} from '@docflow/contracts';
import { applyOnceDurably, checkpointStore, type LocalDb } from '@docflow/kit/eventsourcing';
import { waitUntil } from './wait-until';

export interface AccountRecord {
  id: string;
  kind: 'person' | 'service';
  roles: Role[];
  active: boolean;
  keyHash: string | null;
  rev: number;
}

/**
 * The account a key's hash names: a service account by its API key, or a person by one of their
 * personal access tokens (`personalToken` says which, and until when).
 */
export interface KeyHolder extends AccountRecord {
  personalToken?: { id: string; expires: string | null };
}

interface Row {
  id: string;
  kind: 'person' | 'service';
  roles: string;
  active: number;
  key_hash: string | null;
  rev: number;
}

const CONSUMER = 'gateway-accounts';
/** Marks, in the checkpoints table, that the table holds every account identity had at the rebuild. */
const REBUILT = 'gateway-accounts-rebuilt';
const KNOWN_KEYS_MAX = 10_000;

interface TokenRow {
  id: string;
  account_id: string;
  name: string;
  key_hash: string;
  created: string;
  expires: string | null;
}

const toToken = (r: TokenRow): PersonalToken => ({
  id: r.id,
  name: r.name,
  created: r.created,
  expires: r.expires,
});

const toRecord = (r: Row): AccountRecord => ({
  id: r.id,
  kind: r.kind,
  roles: Object.freeze(JSON.parse(r.roles)) as Role[],
  active: r.active === 1,
  keyHash: r.key_hash,
  rev: r.rev,
});

export interface AccountsReadModel {
  byKeyHash(hash: string): KeyHolder | undefined;
  /** A person's live personal access tokens (expired ones too, until revoked), newest first. */
  personalTokensOf(accountId: string): PersonalToken[];
  byId(id: string): AccountRecord | undefined;
  /** Bus handler: applies one identity event exactly once. */
  handle(message: DeliveredMessage): Promise<void>;
  /** Resolves true once account `id` reached `rev`, false after `timeoutMs`. */
  waitForRevision(id: string, rev: number, timeoutMs: number): Promise<boolean>;
  /**
   * Fills a table that was never rebuilt (new or lost) from identity, page by page, keeping a row
   * the bus brought at a newer revision; nothing once done. Throws when identity does not answer.
   */
  rebuild(fetchPage: (first: number) => Promise<AccountsPage>): Promise<void>;
  /** Whether the table holds every account identity had at a rebuild. */
  rebuilt(): boolean;
}

/**
 * Until docflow sealed personal data the table `accounts` held e-mails; its rows move to
 * `gateway_accounts` without them, and the freed pages are overwritten.
 */
function migrate(db: LocalDb): void {
  db.exec(`CREATE TABLE IF NOT EXISTS gateway_accounts (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, roles TEXT NOT NULL,
    active INTEGER NOT NULL, key_hash TEXT UNIQUE, rev INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS gateway_personal_tokens (
      id TEXT PRIMARY KEY, account_id TEXT NOT NULL, name TEXT NOT NULL, key_hash TEXT NOT NULL UNIQUE,
      created TEXT NOT NULL, expires TEXT);
    CREATE INDEX IF NOT EXISTS gateway_personal_tokens_account ON gateway_personal_tokens (account_id)`);
  const legacy = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'accounts'").get();
  if (!legacy) return;
  db.pragma('secure_delete = ON');
  db.transaction(() => {
    db.exec(`INSERT OR IGNORE INTO gateway_accounts (id, kind, roles, active, key_hash, rev)
      SELECT id, kind, roles, active, key_hash, rev FROM accounts; DROP TABLE accounts`);
  })();
  db.pragma('secure_delete = OFF');
}

export function createAccountsReadModel(db: LocalDb): AccountsReadModel {
  migrate(db);
  const byKey = db.prepare<[string], Row>('SELECT * FROM gateway_accounts WHERE key_hash = ?');
  const byId = db.prepare<[string], Row>('SELECT * FROM gateway_accounts WHERE id = ?');
  const insert = db.prepare(
    'INSERT INTO gateway_accounts (id, kind, roles, active, key_hash, rev) VALUES (?, ?, ?, ?, NULL, ?)',
  );
  const setKey = db.prepare('UPDATE gateway_accounts SET key_hash = ?, rev = ? WHERE id = ?');
  const setActive = db.prepare('UPDATE gateway_accounts SET active = ?, rev = ? WHERE id = ?');
  const setRoles = db.prepare('UPDATE gateway_accounts SET roles = ?, rev = ? WHERE id = ?');
  const setRev = db.prepare('UPDATE gateway_accounts SET rev = ? WHERE id = ?');
  const upsert = db.prepare(
    `INSERT INTO gateway_accounts (id, kind, roles, active, key_hash, rev) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET kind = excluded.kind, roles = excluded.roles, active = excluded.active,
       key_hash = excluded.key_hash, rev = excluded.rev WHERE excluded.rev > gateway_accounts.rev`,
  );
  const tokenByHash = db.prepare<[string], TokenRow>(
    'SELECT * FROM gateway_personal_tokens WHERE key_hash = ?',
  );
  const tokensOf = db.prepare<[string], TokenRow>(
    'SELECT * FROM gateway_personal_tokens WHERE account_id = ? ORDER BY created DESC, id DESC',
  );
  const insertToken = db.prepare(
    `INSERT OR IGNORE INTO gateway_personal_tokens (id, account_id, name, key_hash, created, expires)
      VALUES (@id, @account_id, @name, @keyHash, @created, @expires)`,
  );
  const removeToken = db.prepare('DELETE FROM gateway_personal_tokens WHERE id = ? AND account_id = ?');
  const removeTokensOf = db.prepare('DELETE FROM gateway_personal_tokens WHERE account_id = ?');
  const addToken = (accountId: string, t: PersonalTokenFacts) =>
    insertToken.run({ ...t, account_id: accountId });
  const savePage = db.transaction((page: AccountsPage['accounts']) => {
    for (const a of page) {
      const { changes } = upsert.run(
        a.id,
        a.kind,
        JSON.stringify(a.roles),
        a.active ? 1 : 0,
        a.keyHash,
        a.revision,
      );
      if (changes === 0) continue;
      removeTokensOf.run(a.id);
      for (const t of a.personalTokens ?? []) addToken(a.id, t);
    }
  });
  const checkpoints = checkpointStore(db);
  const updates = new EventEmitter();
  updates.setMaxListeners(0);

  function apply(envelope: EventEnvelope): void {
    const id = envelope.streamId.slice('account-'.length);
    const current = byId.get(id);
    if (current && envelope.revision <= current.rev) return;
    const event = parseStoredIdentityEvent(envelope.type, envelope.data);
    const rev = envelope.revision;
    switch (event.type) {
      case 'AccountCreated': {
        const d = event.data;
        insert.run(id, d.kind, JSON.stringify(d.roles), d.active ? 1 : 0, rev);
        break;
      }
      case 'ApiKeyIssued':
        setKey.run(event.data.keyHash, rev, id);
        break;
      case 'AccountActivationChanged':
        setActive.run(event.data.active ? 1 : 0, rev, id);
        // A deactivation ends the person's tokens for good (identity's account.ts does the same).
        if (!event.data.active) removeTokensOf.run(id);
        break;
      case 'AccountErased':
        setActive.run(0, rev, id);
        removeTokensOf.run(id);
        break;
      case 'PersonalTokenIssued': {
        const { tokenId, name, keyHash, expiresAt } = event.data;
        const created = envelope.metadata.timestamp;
        addToken(id, { id: tokenId, name, keyHash, created, expires: expiresAt });
        setRev.run(rev, id);
        break;
      }
      case 'PersonalTokenRevoked':
        removeToken.run(event.data.tokenId, id);
        setRev.run(rev, id);
        break;
      case 'RolesChanged':
        setRoles.run(JSON.stringify(event.data.roles), rev, id);
        break;
      default:
        setRev.run(rev, id);
    }
  }

  const find = (row: Row | undefined) => (row ? toRecord(row) : undefined);
  /** The person a personal access token's hash names, with the token. */
  function tokenHolder(hash: string): KeyHolder | undefined {
    const token = tokenByHash.get(hash);
    const person = token && find(byId.get(token.account_id));
    return person && { ...person, personalToken: { id: token.id, expires: token.expires } };
  }
  // Every request authenticates: known keys are answered from memory. The accounts change only
  // through handle() and rebuild(), which empty this before they apply anything.
  const knownKeys = new Map<string, KeyHolder>();

  return {
    byKeyHash(hash) {
      const known = knownKeys.get(hash);
      if (known) return known;
      const found = find(byKey.get(hash)) ?? tokenHolder(hash);
      if (found && knownKeys.size < KNOWN_KEYS_MAX) knownKeys.set(hash, Object.freeze(found));
      return found;
    },
    personalTokensOf: (accountId) => tokensOf.all(accountId).map(toToken),
    byId: (id) => find(byId.get(id)),
    async handle(message) {
      const envelope = EventEnvelope.parse(message.value);
      knownKeys.clear();
      if (await applyOnceDurably(db, CONSUMER, envelope.id, () => apply(envelope))) {
        updates.emit('changed', envelope.streamId.slice('account-'.length));
      }
    },
    async rebuild(fetchPage) {
      if (checkpoints.load(REBUILT)) return;
      for (let first: number | null = 0; first !== null; ) {
        const page: AccountsPage = await fetchPage(first);
        knownKeys.clear();
        savePage(page.accounts);
        for (const { id } of page.accounts) updates.emit('changed', id);
        first = page.next;
      }
      checkpoints.save(REBUILT, new Date().toISOString());
    },
    rebuilt: () => checkpoints.load(REBUILT) !== undefined,
    waitForRevision: (id, rev, timeoutMs) =>
      waitUntil(updates, id, () => (byId.get(id)?.rev ?? 0) >= rev, timeoutMs),
  };
}
