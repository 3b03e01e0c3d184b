/** Embedded event store: one SQLite file in WAL mode, every commit fsynced before the append resolves. */
import { backoffDelayMs } from '@docflow/timing';
import Database, { type Statement } from 'better-sqlite3';
import {
  decodeOrReport,
  deliver,
  isJsonObject,
  matchesPrefixes,
  SUBSCRIPTION_BACKOFF,
  sleep,
  startSubscription,
  subscriptionRegistry,
} from './delivery';
import {
  type AppendResult,
  type EventHandler,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  ForeignEvent,
  type NewEvent,
  type RecordedEvent,
  StoreUnavailable,
  type SubscribeAllOptions,
  type Subscription,
  WrongExpectedRevision,
} from './port';
import { createPrivateFile } from './private-file';
import { checkAppend, checkRead, type EncodedEvent } from './validate';
import { sqliteWalSync, syncPath } from './wal-sync';

export interface SqliteEventStoreOptions {
  /** Database file; it (0600) and its directory (0700) are created when missing. */
  file: string;
  /** How often an idle subscription looks for events appended by another process; default 1000 ms. */
  pollIntervalMs?: number;
}

/** The events table (exported so that benchmarks measure the raw engine on the very same table). */
export const SQLITE_EVENTS_SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position    INTEGER PRIMARY KEY AUTOINCREMENT,
    stream_id   TEXT    NOT NULL,
    revision    INTEGER NOT NULL,
    id          TEXT    NOT NULL UNIQUE,
    type        TEXT    NOT NULL,
    version     INTEGER NOT NULL,
    data        TEXT    NOT NULL,
    metadata    TEXT    NOT NULL,
    recorded_at TEXT    NOT NULL,
    UNIQUE (stream_id, revision)
  ) STRICT`;

const BATCH_SIZE = 500;
const BUSY_TIMEOUT_MS = 5_000;
const POSITION_DIGITS = 16;
/** SQLite result codes that mean "cannot get at the file now" rather than a bug in the call. */
const UNAVAILABLE_CODES = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY)/;

/**
 * A row as an array (better-sqlite3's raw mode: no object with named keys built per row), the columns
 * in the order of `COLUMNS`.
 */
type EventRow = [
  position: number,
  streamId: string,
  revision: number,
  id: string,
  type: string,
  version: number,
  data: string,
  metadata: string,
  recordedAt: string,
];
const COLUMNS = 'position, stream_id, revision, id, type, version, data, metadata, recorded_at';
const POSITION = 0;

/**
 * Opens (or creates) the event store file.
 *
 * @example
 * const store = createSqliteEventStore({ file: 'data/events.db' });
 * await store.append('docForm-1', [event], 0);
 */
export function createSqliteEventStore(options: SqliteEventStoreOptions): EventStore {
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  createPrivateFile(options.file);
  const db = new Database(options.file);
  db.pragma('journal_mode = WAL');
  // Commits write the WAL without fsync; `durableUpTo` fsyncs it off the event loop before an append
  // resolves. NORMAL still fsyncs around checkpoints, so the WAL is never reused before the file is.
  db.pragma('synchronous = NORMAL');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.exec(SQLITE_EVENTS_SCHEMA);

  const currentRevision = db
    .prepare<[string], number>('SELECT COALESCE(MAX(revision), 0) FROM events WHERE stream_id = ?')
    .pluck();
  const insert = db.prepare<[string, number, string, string, number, string, string, string]>(
    `INSERT INTO events (stream_id, revision, id, type, version, data, metadata, recorded_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // Two statements: with LIMIT bound as a parameter the same read took about 4× as long (measured).
  const readStreamRest = db
    .prepare<[string, number], EventRow>(
      `SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision`,
    )
    .raw();
  const readStreamSome = db
    .prepare<[string, number, number], EventRow>(
      `SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?`,
    )
    .raw();
  /**
   * A subscription's next batch, by number of stream prefixes. Every row comes back so that the
   * cursor passes the others, but only a matching row carries its data and metadata: a catch-up
   * past large events of other streams (audit checkpoints are about 0.5 MB each) reads none of them
   * (before, three subscriptions of the document store allocated some 210 MB at a 1M-document start).
   */
  const readAfterStatements = new Map<number, Statement<unknown[], EventRow>>();
  function readAfterStatement(prefixCount: number) {
    let statement = readAfterStatements.get(prefixCount);
    if (!statement) {
      const match = Array.from({ length: prefixCount }, (_, i) => `stream_id LIKE $p${i} ESCAPE '\\'`).join(
        ' OR ',
      );
      const columns = prefixCount
        ? `position, stream_id, revision, id, type, version, CASE WHEN ${match} THEN data END,
           CASE WHEN ${match} THEN metadata END, recorded_at`
        : COLUMNS;
      statement = db
        .prepare<unknown[], EventRow>(
          `SELECT ${columns} FROM events WHERE position > $after ORDER BY position LIMIT $limit`,
        )
        .raw();
      readAfterStatements.set(prefixCount, statement);
    }
    return statement;
  }
  const ping = db.prepare('SELECT 1');
  /** COUNT statements by number of prefixes (a catch-up subscription has one or two). */
  const countStatements = new Map<number, Statement<unknown[], number>>();
  function countStatement(prefixCount: number) {
    let statement = countStatements.get(prefixCount);
    if (!statement) {
      const match = Array.from({ length: prefixCount }, () => "stream_id LIKE ? ESCAPE '\\'").join(' OR ');
      statement = db
        .prepare<unknown[], number>(
          `SELECT COUNT(*) FROM (SELECT 1 FROM events WHERE position > ?${prefixCount ? ` AND (${match})` : ''} LIMIT ?)`,
        )
        .pluck();
      countStatements.set(prefixCount, statement);
    }
    return statement;
  }
  const headOf = db
    .prepare<[string], number | null>("SELECT MAX(position) FROM events WHERE stream_id LIKE ? ESCAPE '\\'")
    .pluck();

  const storedEvent = db.prepare<[string], { stream_id: string; revision: number; position: number }>(
    'SELECT stream_id, revision, position FROM events WHERE id = ?',
  );

  /** The first append's result when these very events were appended here before (a retry), else undefined. */
  function earlierAppend(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedRevision,
  ): AppendResult | undefined {
    const first = storedEvent.get(events[0]!.id);
    if (!first || first.stream_id !== streamId) return undefined;
    if (expected !== 'any' && expected !== first.revision - 1) return undefined;
    let position = first.position;
    for (const [i, event] of events.entries()) {
      const stored = i === 0 ? first : storedEvent.get(event.id);
      if (stored?.stream_id !== streamId || stored.revision !== first.revision + i) return undefined;
      position = stored.position;
    }
    return { revision: first.revision + events.length - 1, position: encodePosition(position) };
  }

  const appendTx = db.transaction(
    (
      streamId: string,
      events: readonly NewEvent[],
      encoded: readonly EncodedEvent[],
      expected: ExpectedRevision,
    ): AppendResult => {
      // A retry of an append that was made is answered with its result. It is looked for only where
      // a retry shows: a stream past the expected revision, or the first event's id already stored.
      const actual = currentRevision.get(streamId) ?? 0;
      if (expected !== 'any' && expected !== actual) {
        const repeated = earlierAppend(streamId, events, expected);
        if (repeated) return repeated;
        throw new WrongExpectedRevision(streamId, expected, actual);
      }
      const recordedAt = new Date().toISOString();
      let position = 0;
      for (const [i, event] of events.entries()) {
        try {
          const { lastInsertRowid } = insert.run(
            streamId,
            actual + i + 1,
            event.id,
            event.type,
            event.version,
            encoded[i]!.data,
            encoded[i]!.metadata,
            recordedAt,
          );
          position = Number(lastInsertRowid);
        } catch (error) {
          const repeated =
            i === 0 && error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_UNIQUE'
              ? earlierAppend(streamId, events, expected)
              : undefined;
          if (repeated) return repeated;
          throw error;
        }
      }
      return { revision: actual + events.length, position: encodePosition(position) };
    },
  );

  /**
   * Durability off the event loop: after a commit the WAL file is fdatasynced on the thread pool, one
   * fsync covering every commit made before it started. An append resolves, and a reader in this
   * process gets its events, only once they are durable: a reader that meets newer rows waits for
   * the fsync. (Another process reading the file may see a commit up to one fsync early.)
   */
  // Read before the fsync below: whatever is in the file then (an earlier process may have left it
  // unsynced) is durable once it returns.
  let durable = db.prepare<[], number | null>('SELECT MAX(position) FROM events').pluck().get() ?? 0;
  syncPath(`${options.file}-wal`);
  const wal = sqliteWalSync(options.file);
  let committed = durable;
  let requested = durable;
  /** Set when an fsync failed: what is in the WAL may not be on disk, so the store stops (fail-stop). */
  let failed: StoreUnavailable | undefined;

  let syncing: Promise<void> | undefined;

  function durableUpTo(position: number): Promise<void> {
    if (failed) return Promise.reject(failed);
    if (position <= durable) return Promise.resolve();
    requested = Math.max(requested, position);
    // Join the fsync under way; if it started before this position was written, start the next.
    syncing ??= syncWal().finally(() => {
      syncing = undefined;
    });
    return syncing.then(() => durableUpTo(position));
  }

  async function syncWal(): Promise<void> {
    // Everything in the WAL when the fsync starts is covered, whoever wrote it.
    const target = Math.max(committed, requested);
    try {
      await wal.fsync();
    } catch (error) {
      // After a failed fsync a later one may succeed without the data reaching the disk: an append
      // whose caller saw an error must never turn up, so nothing is read or written until a restart.
      failed ??= new StoreUnavailable(
        `the event store's WAL could not be synced (${(error as Error).message}); restart the service`,
        { cause: error },
      );
      throw failed;
    }
    durable = Math.max(durable, target);
  }

  /**
   * Group commit: appends made in the same turn of the event loop are committed together, in one
   * transaction and so with one fsync, each in its own savepoint (one append's wrong expected revision
   * leaves the others in). Nothing is visible before its commit is durable, as with one at a time.
   */
  interface PendingAppend {
    streamId: string;
    events: readonly NewEvent[];
    encoded: readonly EncodedEvent[];
    expected: ExpectedRevision;
    resolve: (result: AppendResult) => void;
    reject: (error: unknown) => void;
  }
  let pending: PendingAppend[] = [];
  type Outcome = { result?: AppendResult; error?: unknown };
  /**
   * One append's outcome: anything about this append (its expected revision, a duplicate event id)
   * fails it alone; the engine failing is thrown, and ends the whole batch.
   */
  function outcomeOf(append: () => AppendResult): Outcome {
    try {
      return { result: append() };
    } catch (error) {
      if (error instanceof Database.SqliteError && UNAVAILABLE_CODES.test(error.code)) throw error;
      return { error };
    }
  }
  const batchTx = db.transaction((batch: PendingAppend[]) =>
    batch.map((item) => outcomeOf(() => appendTx(item.streamId, item.events, item.encoded, item.expected))),
  );
  /** A lone append is its own transaction, without a savepoint inside it. */
  function commitBatch(batch: PendingAppend[]): Outcome[] {
    if (batch.length > 1) return batchTx.immediate(batch);
    const item = batch[0]!;
    return [outcomeOf(() => appendTx.immediate(item.streamId, item.events, item.encoded, item.expected))];
  }

  function commitPending(): void {
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    let outcomes: Outcome[];
    try {
      outcomes = guard('append', () => commitBatch(batch));
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    for (const outcome of outcomes)
      if (outcome.result) committed = Math.max(committed, decodePosition(outcome.result.position));
    commits++;
    const madeDurable = durableUpTo(committed);
    batch.forEach((item, i) => {
      const { result, error } = outcomes[i]!;
      if (result) madeDurable.then(() => item.resolve(result), item.reject);
      else item.reject(error);
    });
    madeDurable.then(() => {
      for (const wake of waiters) wake();
    }, noop);
  }

  // Idle subscriptions park here; an append in this process wakes them at once, the poll timer
  // catches appends made by other processes.
  const waiters = new Set<() => void>();
  /** Commits made by this store so far: a subscription that read less than a batch re-reads only after one. */
  let commits = 0;
  const subscriptions = subscriptionRegistry();
  let closed = false;

  function guard<T>(what: string, run: () => T): T {
    if (closed) throw new StoreUnavailable(`${what}: the event store is closed`);
    if (failed) throw failed;
    try {
      return run();
    } catch (error) {
      if (error instanceof Database.SqliteError && UNAVAILABLE_CODES.test(error.code)) {
        throw new StoreUnavailable(`${what}: ${error.message}`, { cause: error });
      }
      throw error;
    }
  }

  function waitForAppend(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        waiters.delete(wake);
        clearTimeout(timer);
        signal.removeEventListener('abort', wake);
        resolve();
      };
      const timer = setTimeout(wake, pollIntervalMs);
      waiters.add(wake);
      signal.addEventListener('abort', wake, { once: true });
    });
  }

  function subscribe(options: SubscribeAllOptions, handler: EventHandler): Subscription {
    let cursor = options.after === undefined ? 0 : decodePosition(options.after);
    const prefixes = options.streamPrefixes ?? [];
    const readAfter = readAfterStatement(prefixes.length);
    const patterns = Object.fromEntries(prefixes.map((prefix, i) => [`p${i}`, likePrefix(prefix)]));
    return startSubscription(async (signal) => {
      let failures = 0;
      while (!signal.aborted) {
        let rows: EventRow[];
        const commitsBefore = commits;
        try {
          rows = guard('subscribeAll', () =>
            readAfter.all({ ...patterns, after: cursor, limit: BATCH_SIZE }),
          );
          if (rows.length) await durableUpTo(rows[rows.length - 1]![POSITION]);
          failures = 0;
        } catch (error) {
          options.onSubscriptionError?.(error, ++failures);
          await sleep(backoffDelayMs(failures, SUBSCRIPTION_BACKOFF), signal);
          continue;
        }
        // No await between the empty read and parking, so an in-process append cannot slip between them.
        if (rows.length === 0) {
          await waitForAppend(signal);
          continue;
        }
        for (const row of rows) {
          if (matchesPrefixes(row[1], options.streamPrefixes)) {
            const event = decodeOrReport(toRecorded, row, options);
            if (event) {
              const delivered = deliver(event, handler, signal, options.onHandlerError);
              if (delivered !== true && !(await delivered)) return;
            }
          }
          cursor = row[POSITION];
        }
        // A short batch reached the end: unless this store committed since, the next read would find
        // nothing (another process's appends are found by the poll, as after an empty read).
        if (rows.length < BATCH_SIZE && commits === commitsBefore && !signal.aborted)
          await waitForAppend(signal);
      }
    });
  }

  return {
    append(streamId, events, expected) {
      let encoded: EncodedEvent[];
      try {
        encoded = checkAppend(streamId, events, expected);
        if (closed) throw new StoreUnavailable('append: the event store is closed');
      } catch (error) {
        return Promise.reject(error);
      }
      return new Promise((resolve, reject) => {
        if (pending.length === 0) setImmediate(commitPending);
        pending.push({ streamId, events, encoded, expected, resolve, reject });
      });
    },

    async readStream(streamId, options = {}) {
      const { fromRevision, maxCount } = checkRead(streamId, options);
      const rows = guard('readStream', () =>
        Number.isFinite(maxCount)
          ? readStreamSome.all(streamId, fromRevision, maxCount)
          : readStreamRest.all(streamId, fromRevision),
      );
      if (rows.length) await durableUpTo(rows[rows.length - 1]![POSITION]);
      return rows.map(toRecorded);
    },

    subscribeAll(options, handler) {
      if (closed) throw new StoreUnavailable('subscribeAll: the event store is closed');
      return subscriptions.track(subscribe(options, handler));
    },

    async headPosition(options = {}) {
      const patterns = (options.streamPrefixes ?? ['']).map(likePrefix);
      const heads = guard('headPosition', () => patterns.map((p) => headOf.get(p) ?? 0));
      const head = Math.max(0, ...heads);
      if (head === 0) return undefined;
      await durableUpTo(head);
      return encodePosition(head);
    },

    async countAfter({ after, streamPrefixes = [], limit }) {
      const from = after === undefined ? 0 : decodePosition(after);
      const patterns = streamPrefixes.map(likePrefix);
      return guard('countAfter', () => countStatement(patterns.length).get(from, ...patterns, limit) ?? 0);
    },

    async ping() {
      guard('ping', () => ping.get());
    },

    async close() {
      if (closed) return;
      commitPending();
      closed = true;
      await subscriptions.stopAll();
      await syncing?.catch(noop);
      await wal.close();
      db.close();
    },
  };
}

const noop = () => {};

/** A LIKE pattern matching the stream ids that start with `prefix`. */
function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, '\\$&')}%`;
}

/** Decodes a row; one this port did not write (its data or metadata not a JSON object) is a ForeignEvent. */
function toRecorded(row: EventRow): RecordedEvent {
  const [position, streamId, revision, id, type, version, data, metadata, recordedAt] = row;
  return {
    id,
    type,
    version,
    data: parseObject(data, 'data', row),
    metadata: parseObject(metadata, 'metadata', row) as EventMetadata,
    streamId,
    revision,
    position: encodePosition(position),
    recordedAt,
  };
}

function parseObject(text: string, what: string, row: EventRow): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw foreign(row, `its ${what} is not JSON`);
  }
  if (!isJsonObject(value)) throw foreign(row, `its ${what} is not a JSON object`);
  return value;
}

function foreign(row: EventRow, reason: string): ForeignEvent {
  const [position, streamId, revision, id, type] = row;
  return new ForeignEvent({ streamId, revision, position: encodePosition(position), id, type, reason });
}

/** Zero-padded so that positions compare in store order as strings. */
function encodePosition(position: number): string {
  return String(position).padStart(POSITION_DIGITS, '0');
}

function decodePosition(position: string): number {
  if (!/^\d{16}$/.test(position)) throw new RangeError(`not a position of this event store: ${position}`);
  return Number(position);
}
