/**
 * The gateway's read model of accounts (key hashes, roles, active flag, e-mail), fed by the identity
 * service's events from the bus, so authenticating a request needs no call to another service.
 */
import { EventEmitter } from 'node:events';
import type { DeliveredMessage } from '@docflow/bus';
import { EventEnvelope, parseIdentityEvent, type Role } from '@docflow/contracts';
import { applyOnceDurably, type LocalDb } from '@docflow/kit/eventsourcing';

export interface AccountRecord {
  id: string;
  kind: 'person' | 'service';
  email: string;
  roles: Role[];
  active: boolean;
  keyHash: string | null;
  rev: number;
}

interface Row {
  id: string;
  kind: 'person' | 'service';
  email: string;
  roles: string;
  active: number;
  key_hash: string | null;
  rev: number;
}

const CONSUMER = 'gateway-accounts';
const KNOWN_KEYS_MAX = 10_000;

const toRecord = (r: Row): AccountRecord => ({
  id: r.id,
  kind: r.kind,
  email: r.email,
  roles: Object.freeze(JSON.parse(r.roles)) as Role[],
  active: r.active === 1,
  keyHash: r.key_hash,
  rev: r.rev,
});

export interface AccountsReadModel {
  byKeyHash(hash: string): AccountRecord | undefined;
  byId(id: string): AccountRecord | undefined;
  byEmail(email: string): AccountRecord | undefined;
  /** Bus handler: applies one identity event exactly once. */
  handle(message: DeliveredMessage): Promise<void>;
  /** Resolves true once account `id` reached `rev`, false after `timeoutMs`. */
  waitForRevision(id: string, rev: number, timeoutMs: number): Promise<boolean>;
}

export function createAccountsReadModel(db: LocalDb): AccountsReadModel {
  db.exec(`CREATE TABLE IF NOT EXISTS accounts (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, email TEXT NOT NULL UNIQUE, roles TEXT NOT NULL,
    active INTEGER NOT NULL, key_hash TEXT UNIQUE, rev INTEGER NOT NULL)`);
  const byKey = db.prepare<[string], Row>('SELECT * FROM accounts WHERE key_hash = ?');
  const byId = db.prepare<[string], Row>('SELECT * FROM accounts WHERE id = ?');
  const byEmail = db.prepare<[string], Row>('SELECT * FROM accounts WHERE email = ?');
  const insert = db.prepare(
    'INSERT INTO accounts (id, kind, email, roles, active, key_hash, rev) VALUES (?, ?, ?, ?, ?, NULL, ?)',
  );
  const setKey = db.prepare('UPDATE accounts SET key_hash = ?, rev = ? WHERE id = ?');
  const setActive = db.prepare('UPDATE accounts SET active = ?, rev = ? WHERE id = ?');
  const setRoles = db.prepare('UPDATE accounts SET roles = ?, rev = ? WHERE id = ?');
  const setRev = db.prepare('UPDATE accounts SET rev = ? WHERE id = ?');
  const updates = new EventEmitter();
  updates.setMaxListeners(0);

  function apply(envelope: EventEnvelope): void {
    const id = envelope.streamId.slice('account-'.length);
    const current = byId.get(id);
    if (current && envelope.revision <= current.rev) return;
    const event = parseIdentityEvent(envelope.type, envelope.data);
    const rev = envelope.revision;
    switch (event.type) {
      case 'AccountCreated': {
        const d = event.data;
        insert.run(id, d.kind, d.email, JSON.stringify(d.roles), d.active ? 1 : 0, rev);
        break;
      }
      case 'ApiKeyIssued':
        setKey.run(event.data.keyHash, rev, id);
        break;
      case 'AccountActivationChanged':
        setActive.run(event.data.active ? 1 : 0, rev, id);
        break;
      case 'RolesChanged':
        setRoles.run(JSON.stringify(event.data.roles), rev, id);
        break;
      default:
        setRev.run(rev, id);
    }
  }

  const find = (row: Row | undefined) => (row ? toRecord(row) : undefined);
  // Every request authenticates: known keys are answered from memory. The accounts change only
  // through handle(), which empties this before it applies an event.
  const knownKeys = new Map<string, AccountRecord>();

  return {
    byKeyHash(hash) {
      const known = knownKeys.get(hash);
      if (known) return known;
      const found = find(byKey.get(hash));
      if (found && knownKeys.size < KNOWN_KEYS_MAX) knownKeys.set(hash, Object.freeze(found));
      return found;
    },
    byId: (id) => find(byId.get(id)),
    byEmail: (email) => find(byEmail.get(email.trim().toLowerCase())),
    async handle(message) {
      const envelope = EventEnvelope.parse(message.value);
      knownKeys.clear();
      if (await applyOnceDurably(db, CONSUMER, envelope.id, () => apply(envelope))) {
        updates.emit('changed', envelope.streamId.slice('account-'.length));
      }
    },
    waitForRevision(id, rev, timeoutMs) {
      const reached = () => (byId.get(id)?.rev ?? 0) >= rev;
      if (reached()) return Promise.resolve(true);
      return new Promise((resolve) => {
        const onChange = (changed: string) => {
          if (changed === id && reached()) done(true);
        };
        const timer = setTimeout(() => done(false), timeoutMs);
        function done(ok: boolean) {
          clearTimeout(timer);
          updates.off('changed', onChange);
          resolve(ok);
        }
        updates.on('changed', onChange);
      });
    },
  };
}
