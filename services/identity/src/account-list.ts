/**
 * The list of accounts, oldest or newest first: a read model in identity's local database, kept from its own
 * `account-` streams by a catch-up subscription whose checkpoint is saved in the same transaction as
 * the row. It holds no personal data (that stays sealed in the events, so erasing shreds it here
 * too): only the id, kind, active flag and where the account was created. A listing loads each
 * account of its page from the event store.
 */
import { type Account, type AccountListQuery, parseStoredIdentityEvent, upcast } from '@docflow/contracts';
import type { EventStore, RecordedEvent } from '@docflow/eventstore';
import type { Logger } from '@docflow/kit';
import { checkpointReached, checkpointStore, followStreams, type LocalDb } from '@docflow/kit/eventsourcing';

const NAME = 'identity-account-list';
const PREFIXES = ['account-'];

export interface AccountListPage {
  total: number;
  ids: string[];
}

export interface AccountList {
  start(): void;
  stop(): Promise<void>;
  /** Resolves true once every account event stored so far is in the list, false after `timeoutMs`. */
  caughtUp(timeoutMs: number): Promise<boolean>;
  /** The ids of one page of the accounts matching the filters, and how many match. */
  page(query: ListPageQuery): AccountListPage;
}

export type ListPageQuery = Pick<AccountListQuery, 'first' | 'pageSize'> &
  Partial<Pick<AccountListQuery, 'kind' | 'active' | 'order'>>;

interface Filter {
  kind: Account['kind'] | null;
  active: number | null;
}

export function createAccountList(store: EventStore, db: LocalDb, log: Logger): AccountList {
  db.exec(`CREATE TABLE IF NOT EXISTS identity_accounts (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, active INTEGER NOT NULL,
    created_position TEXT NOT NULL, created_at TEXT NOT NULL);
    CREATE INDEX IF NOT EXISTS identity_accounts_created ON identity_accounts (created_position, id)`);
  const checkpoints = checkpointStore(db);
  const where = `WHERE (@kind IS NULL OR kind = @kind) AND (@active IS NULL OR active = @active)`;
  const count = db.prepare<[Filter], number>(`SELECT count(*) FROM identity_accounts ${where}`).pluck();
  const selectIn = (direction: 'ASC' | 'DESC') =>
    db
      .prepare<[Filter & { limit: number; offset: number }], string>(
        `SELECT id FROM identity_accounts ${where}
         ORDER BY created_position ${direction}, id ${direction} LIMIT @limit OFFSET @offset`,
      )
      .pluck();
  const select = { oldest: selectIn('ASC'), newest: selectIn('DESC') };
  const insert = db.prepare(
    `INSERT OR IGNORE INTO identity_accounts (id, kind, active, created_position, created_at)
     VALUES (?, ?, ?, ?, ?)`,
  );
  const setActive = db.prepare('UPDATE identity_accounts SET active = ? WHERE id = ?');

  const applyTx = db.transaction((event: RecordedEvent) => {
    const id = event.streamId.slice('account-'.length);
    const stored = parseStoredIdentityEvent(event.type, upcast(event).data);
    if (stored.type === 'AccountCreated')
      insert.run(id, stored.data.kind, stored.data.active ? 1 : 0, event.position, event.recordedAt);
    else if (stored.type === 'AccountActivationChanged') setActive.run(stored.data.active ? 1 : 0, id);
    else if (stored.type === 'AccountErased') setActive.run(0, id);
    checkpoints.save(NAME, event.position);
  });

  const follower = followStreams({
    store,
    checkpoints,
    name: NAME,
    streamPrefixes: PREFIXES,
    log,
    label: 'account list',
    apply: applyTx,
  });
  return {
    ...follower,
    caughtUp: (timeoutMs) => checkpointReached(store, checkpoints, NAME, PREFIXES, timeoutMs),
    page({ first, pageSize, kind, active, order = 'oldest' }) {
      const filter: Filter = { kind: kind ?? null, active: active === undefined ? null : active ? 1 : 0 };
      return {
        total: count.get(filter) ?? 0,
        ids: select[order].all({ ...filter, limit: pageSize, offset: first }),
      };
    },
  };
}
