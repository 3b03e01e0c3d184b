/**
 * A service's small local database (SQLite, WAL) for what is not an event: relay checkpoints, the
 * ids of messages already handled, and read models.
 *
 * Commits are not fsynced (`synchronous = NORMAL`): a killed process loses nothing (the commit is in
 * the OS), and a power loss can only take the newest commits back, each whole (WAL). Everything here
 * is derived from the event stores, which do fsync every commit: a checkpoint taken back makes the
 * relay publish again, and every consumer whose effect lands in an event store dedupes there
 * (source ids in the aggregate), so a handled-message mark taken back is harmless. The fsyncs this
 * saves were most of a document create's (bench/RESULTS.md, "Create document").
 */
import {
  createPrivateFile,
  type EventStore,
  type RecordedEvent,
  type Subscription,
  sqliteWalSync,
  type WalSync,
} from '@docflow/eventstore';
import Database from 'better-sqlite3';
import type { Logger } from './logger';

export type LocalDb = Database.Database;

export function openLocalDb(file: string): LocalDb {
  if (file !== ':memory:') createPrivateFile(file);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // Read models (the views: 100,000 documents are some 100 MB) are read through the page cache and
  // mmap rather than a read() per page; sorts and DISTINCT stay in memory.
  db.pragma('cache_size = -32768');
  db.pragma('mmap_size = 268435456');
  db.pragma('temp_store = MEMORY');
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

const CATCH_UP_POLL_MS = 20;

/**
 * Read-your-writes for a projection that checkpoints as `name`: resolves true once its checkpoint has
 * reached the newest event of `streamPrefixes` in the store at the time of the call, false when
 * `timeoutMs` passed first.
 */
export async function checkpointReached(
  store: EventStore,
  checkpoints: CheckpointStore,
  name: string,
  streamPrefixes: string[],
  timeoutMs: number,
): Promise<boolean> {
  const head = await store.headPosition({ streamPrefixes });
  const end = Date.now() + timeoutMs;
  while (head !== undefined && (checkpoints.load(name) ?? '') < head) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, CATCH_UP_POLL_MS));
  }
  return true;
}

/** A read model kept in the local database from the event store (see `followStreams`). */
export interface StreamFollower {
  start(): void;
  stop(): Promise<void>;
}

/**
 * Keeps a read model from the event store: a catch-up subscription over `streamPrefixes` from the
 * checkpoint `name`, each event handed to `apply`, which saves the checkpoint in the same transaction
 * as its effect; a failed `apply` is logged (as `label`) and the same event tried again.
 */
export function followStreams(options: {
  store: EventStore;
  checkpoints: CheckpointStore;
  name: string;
  streamPrefixes: string[];
  log: Logger;
  label: string;
  apply: (event: RecordedEvent) => void;
}): StreamFollower {
  const { store, checkpoints, name, streamPrefixes, log, label, apply } = options;
  let subscription: Subscription | undefined;
  return {
    start() {
      subscription ??= store.subscribeAll(
        {
          after: checkpoints.load(name),
          streamPrefixes,
          onHandlerError: (err, event, attempt) =>
            log.warn({ err, eventId: event.id, attempt }, `${label}: applying an event failed, retrying`),
        },
        async (event) => apply(event),
      );
    },
    async stop() {
      await subscription?.stop();
      subscription = undefined;
    },
  };
}

const applyOnceTxs = new WeakMap<LocalDb, (consumer: string, id: string, run: () => void) => boolean>();

/**
 * Applies `apply` and records `messageId` as handled in one transaction, so a re-delivered message
 * changes nothing: exactly-once effect on top of at-least-once delivery. Returns false for a repeat.
 */
export function applyOnce(db: LocalDb, consumer: string, messageId: string, apply: () => void): boolean {
  let applyOnceTx = applyOnceTxs.get(db);
  if (!applyOnceTx) {
    // Prepared once per database: every consumed message comes through here.
    const mark = db.prepare('INSERT OR IGNORE INTO handled_messages (consumer, message_id) VALUES (?, ?)');
    applyOnceTx = db.transaction((c: string, id: string, run: () => void) => {
      if (mark.run(c, id).changes === 0) return false;
      run();
      return true;
    });
    applyOnceTxs.set(db, applyOnceTx);
  }
  return applyOnceTx(consumer, messageId, apply);
}

const walSyncs = new WeakMap<LocalDb, WalSync>();

/**
 * Resolves once every commit made so far on `db` is on disk (an fdatasync of its WAL off the event
 * loop, shared by all who wait). A bus consumer awaits this before its handler returns: the bus then
 * acknowledges the message (a Kafka offset, a relay checkpoint elsewhere), so the effect must not be
 * one that a power loss could still take back.
 */
function commitsDurable(db: LocalDb): Promise<void> {
  if (db.memory) return Promise.resolve();
  let wal = walSyncs.get(db);
  if (!wal) {
    wal = sqliteWalSync(db.name);
    walSyncs.set(db, wal);
  }
  return wal.sync();
}

/** applyOnce for a bus consumer: resolves once the effect and the handled mark are durable. */
export async function applyOnceDurably(
  db: LocalDb,
  consumer: string,
  messageId: string,
  apply: () => void,
): Promise<boolean> {
  const applied = applyOnce(db, consumer, messageId, apply);
  await commitsDurable(db);
  return applied;
}
