/**
 * Shared event store on PostgreSQL (`pg`): one schema per service in one database, one `events`
 * table in it. Several processes of a service append to and subscribe on the same table.
 *
 * The global order is (transaction id, position), and a subscription reads only the events of
 * transactions older than every transaction still running (`pg_snapshot_xmin`): an identity column
 * is drawn when a row is inserted, not when it commits, so a plain `WHERE position > $after` skips
 * an event whose transaction commits after a later-numbered one (the trap Marten and Emmett close
 * the same way). The price: a long-running write transaction anywhere in the cluster holds every
 * subscription back until it ends.
 */
import { backoffDelayMs } from '@docflow/timing';
import pg from 'pg';
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
  HEAD_SCAN_LIMIT,
  type NewEvent,
  type RecordedEvent,
  type ServiceLease,
  StoreUnavailable,
  type SubscribeAllOptions,
  type Subscription,
  WrongExpectedRevision,
} from './port';
import { postgresServiceLease } from './postgres-lease';
import type { SharedSql } from './shared-sql';
import { checkAppend, checkRead, type EncodedEvent } from './validate';

export interface PostgresEventStoreOptions {
  /** e.g. `postgres://docflow:secret@127.0.0.1:15432/docflow`. */
  connectionString: string;
  /** The service's schema (created when missing): lowercase letters, digits and `_`. */
  schema: string;
  /** Each call fails with StoreUnavailable when the server has not answered after this long; default 5000. */
  timeoutMs?: number;
  /**
   * How often an idle subscription looks for new events when no notification came (the server notifies
   * every commit to the table; a lost listening connection or an aborted older transaction leaves it
   * to this); default 1000 ms.
   */
  pollIntervalMs?: number;
  /** Connections in the pool; default 10. */
  maxConnections?: number;
}

const DEFAULT_TIMEOUT_MS = 5_000;
const BATCH_SIZE = 500;
const DIGITS = 20;
const POSITION_PATTERN = /^(\d{20})-(\d{20})$/;
/** At most 48 characters, so that the notification channel `events_<schema>` stays a PostgreSQL name. */
const SCHEMA_PATTERN = /^[a-z_][a-z0-9_]{0,47}$/;
/** SQLSTATE classes and codes meaning "the server cannot serve this now", not a bug in the call. */
const UNAVAILABLE_SQLSTATE = /^(08|53|57P0[1-3]|58)/;
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/**
 * The schema's table (exported so that benchmarks measure the raw engine on the very same table).
 * `stream_id` collates as C so that a prefix LIKE uses the index; data and metadata are `json`, which
 * keeps the text as appended (and NUL escapes, which `jsonb` refuses).
 */
export function postgresEventsSchema(schema: string): string {
  const s = quoteSchema(schema);
  return `
  CREATE SCHEMA IF NOT EXISTS ${s};
  CREATE TABLE IF NOT EXISTS ${s}.events (
    position    bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tx_id       xid8        NOT NULL DEFAULT pg_current_xact_id(),
    stream_id   text        COLLATE "C" NOT NULL,
    revision    integer     NOT NULL,
    id          uuid        NOT NULL CONSTRAINT events_id_key UNIQUE,
    type        text        NOT NULL,
    version     integer     NOT NULL,
    data        json        NOT NULL,
    metadata    json        NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT events_stream_revision_key UNIQUE (stream_id, revision)
  );
  CREATE INDEX IF NOT EXISTS events_global_order ON ${s}.events (tx_id, position);
  CREATE TABLE IF NOT EXISTS ${s}.leases (
    name       text        PRIMARY KEY,
    holder     text        NOT NULL,
    expires_at timestamptz NOT NULL,
    position   text
  );
  CREATE OR REPLACE FUNCTION ${s}.notify_events() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_notify('${notificationChannel(schema)}', ''); RETURN NULL; END $$;
  CREATE OR REPLACE TRIGGER events_notify AFTER INSERT ON ${s}.events
    FOR EACH STATEMENT EXECUTE FUNCTION ${s}.notify_events();`;
}

/** Where the server tells listeners that a transaction appended to the schema's events (sent at commit). */
function notificationChannel(schema: string): string {
  return `events_${schema}`;
}

/** A row as the queries below select it. */
interface EventRow {
  /** The transaction id as text (aliased: `ORDER BY tx_id` must sort by the xid8 column, not by text). */
  tx: string;
  position: string;
  stream_id: string;
  revision: number;
  id: string;
  type: string;
  version: number;
  data: string | null;
  metadata: string | null;
  recorded_at: Date;
}
const COLUMNS = 'tx_id::text AS tx, position, stream_id, revision, id, type, version, recorded_at';

/** The store, and the leases that let one of a service's processes do a piece of work at a time (the relay). */
export interface PostgresEventStore extends EventStore {
  serviceLease(ttlMs?: number): ServiceLease;
  /** The service's schema for state its processes share beside the events (idempotency keys, …). */
  sharedSql(): SharedSql;
}

/** How long a lease outlives its holder's last renewal, unless told otherwise. */
export const DEFAULT_LEASE_TTL_MS = 10_000;

/**
 * Connects lazily, and creates the schema and its table on the first call.
 *
 * @example
 * const store = createPostgresEventStore({ connectionString: process.env.POSTGRES_URL!, schema: 'document' });
 * await store.append('docForm-1', [event], 0);
 */
export function createPostgresEventStore(options: PostgresEventStoreOptions): PostgresEventStore {
  if (!SCHEMA_PATTERN.test(options.schema))
    throw new RangeError(`schema ${options.schema}: lowercase letters, digits and _ only`);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const table = `${quoteSchema(options.schema)}.events`;
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    application_name: `docflow-${options.schema}`,
  });
  // An idle connection the server dropped must not crash the process; the next call reconnects.
  pool.on('error', () => {});
  const subscriptions = subscriptionRegistry();
  const waiters = new Set<() => void>();
  /** Counts the wake-ups, so that a subscription does not park after one that came while it was reading. */
  let wakeUps = 0;
  function wakeAll(): void {
    wakeUps++;
    for (const wake of waiters) wake();
  }
  let closed = false;

  let ready: Promise<void> | undefined;
  function ensureSchema(): Promise<void> {
    ready ??= transaction(async (client) => {
      // Two processes creating the same schema at once would collide in the catalog.
      await client.query("SELECT pg_advisory_xact_lock(hashtext('docflow-eventstore-schema'))");
      await client.query(postgresEventsSchema(options.schema));
    }).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  }

  async function transaction<T>(run: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let failure: unknown;
    try {
      await client.query('BEGIN');
      const result = await run(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      failure = error;
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      // A connection that failed mid-transaction is dropped rather than reused.
      client.release(failure instanceof Error && isUnavailable(failure) ? failure : undefined);
    }
  }

  /** Runs a call: the schema first, a closed store or an unreachable server as StoreUnavailable. */
  async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
    if (closed) throw new StoreUnavailable(`${what}: the event store is closed`);
    try {
      await ensureSchema();
      return await run();
    } catch (error) {
      throw toStoreError(what, error);
    }
  }

  async function query<R extends pg.QueryResultRow>(
    text: string,
    values: unknown[] = [],
    on: pg.Pool | pg.PoolClient = pool,
  ): Promise<R[]> {
    return (await on.query<R>(text, values)).rows;
  }

  /** The first append's result when these very events were appended here before (a retry), else undefined. */
  async function earlierAppend(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedRevision,
    on: pg.Pool | pg.PoolClient = pool,
  ): Promise<AppendResult | undefined> {
    const ids = events.map((event) => event.id);
    const stored = await query<Pick<EventRow, 'id' | 'stream_id' | 'revision' | 'tx' | 'position'>>(
      `SELECT id, stream_id, revision, tx_id::text AS tx, position FROM ${table} WHERE id = ANY($1::uuid[])`,
      [ids],
      on,
    );
    const byId = new Map(stored.map((row) => [row.id, row]));
    const first = byId.get(ids[0]!.toLowerCase());
    if (!first || first.stream_id !== streamId) return undefined;
    if (expected !== 'any' && expected !== first.revision - 1) return undefined;
    let last = first;
    for (const [i, id] of ids.entries()) {
      const row = byId.get(id.toLowerCase());
      if (row?.stream_id !== streamId || row.revision !== first.revision + i) return undefined;
      last = row;
    }
    return { revision: last.revision, position: encodePosition(last.tx, last.position) };
  }

  async function appendOnce(
    streamId: string,
    events: readonly NewEvent[],
    encoded: readonly EncodedEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    return transaction(async (client) => {
      // Appenders to one stream take turns (a hash collision only makes two streams take turns);
      // the unique (stream_id, revision) key stays the guard against a lost update all the same.
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
        `${options.schema}/${streamId}`,
      ]);
      const { rows } = await client.query<{ revision: number }>(
        `SELECT COALESCE(MAX(revision), 0) AS revision FROM ${table} WHERE stream_id = $1`,
        [streamId],
      );
      const actual = rows[0]!.revision;
      if (expected !== 'any' && expected !== actual) {
        const repeated = await earlierAppend(streamId, events, expected, client);
        if (repeated) return repeated;
        throw new WrongExpectedRevision(streamId, expected, actual);
      }
      const inserted = await client.query<{ tx: string; position: string }>(
        `INSERT INTO ${table} (stream_id, revision, id, type, version, data, metadata)
         SELECT $1, $2 + n, id, type, version, data, metadata
         FROM unnest($3::uuid[], $4::text[], $5::int[], $6::json[], $7::json[])
              WITH ORDINALITY AS e(id, type, version, data, metadata, n)
         ORDER BY n
         RETURNING tx_id::text AS tx, position`,
        [
          streamId,
          actual,
          events.map((event) => event.id),
          events.map((event) => event.type),
          events.map((event) => event.version),
          encoded.map((event) => event.data),
          encoded.map((event) => event.metadata),
        ],
      );
      const last = inserted.rows.reduce((a, b) => (BigInt(a.position) > BigInt(b.position) ? a : b));
      return { revision: actual + events.length, position: encodePosition(last.tx, last.position) };
    });
  }

  async function append(
    streamId: string,
    events: readonly NewEvent[],
    encoded: readonly EncodedEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    try {
      return await appendOnce(streamId, events, encoded, expected);
    } catch (error) {
      if (!(error instanceof pg.DatabaseError) || error.code !== '23505') throw error;
      // A writer that did not take the stream's turn got there first, or these events are stored.
      const repeated = await earlierAppend(streamId, events, expected);
      if (repeated) return repeated;
      if (error.constraint === 'events_stream_revision_key' && expected !== 'any') {
        const [row] = await query<{ revision: number }>(
          `SELECT COALESCE(MAX(revision), 0) AS revision FROM ${table} WHERE stream_id = $1`,
          [streamId],
        );
        throw new WrongExpectedRevision(streamId, expected, row!.revision);
      }
      throw error;
    }
  }

  /**
   * The next events after a cursor, in global order, of finished transactions only. Every row comes
   * back so that the cursor passes the others; only a matching row carries its data and metadata.
   */
  function readAfter(after: [string, string], prefixes: readonly string[]): Promise<EventRow[]> {
    const match = prefixes.map((_, i) => `stream_id LIKE $${i + 4}`).join(' OR ');
    const payload = match
      ? `CASE WHEN ${match} THEN data::text END AS data, CASE WHEN ${match} THEN metadata::text END AS metadata`
      : 'data::text AS data, metadata::text AS metadata';
    return query<EventRow>(
      `SELECT ${COLUMNS}, ${payload} FROM ${table}
       WHERE (tx_id, position) > ($1::xid8, $2::bigint) AND tx_id < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY tx_id, position LIMIT $3`,
      [after[0], after[1], BATCH_SIZE, ...prefixes.map(likePrefix)],
    );
  }

  /**
   * One connection per store LISTENs for commits to the table (its own and other processes'), opened
   * when a subscription first parks and again after it was lost; until then the poll finds them.
   */
  let listener: pg.Client | undefined;
  function listen(): void {
    if (listener || closed) return;
    const client = new pg.Client({
      connectionString: options.connectionString,
      connectionTimeoutMillis: timeoutMs,
      application_name: `docflow-${options.schema}-listen`,
    });
    listener = client;
    const drop = () => {
      if (listener === client) listener = undefined;
      client.end().catch(() => {});
    };
    client.on('error', drop).on('end', drop);
    client.on('notification', wakeAll);
    client
      .connect()
      .then(() => client.query(`LISTEN ${notificationChannel(options.schema)}`))
      .catch(drop);
  }

  function waitForAppend(signal: AbortSignal): Promise<void> {
    listen();
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
    let cursor: [string, string] = options.after === undefined ? ['0', '0'] : decodePosition(options.after);
    const prefixes = options.streamPrefixes ?? [];
    return startSubscription(async (signal) => {
      let failures = 0;
      while (!signal.aborted) {
        let rows: EventRow[];
        const wakeUpsBefore = wakeUps;
        try {
          rows = await call('subscribeAll', () => readAfter(cursor, prefixes));
          failures = 0;
        } catch (error) {
          options.onSubscriptionError?.(error, ++failures);
          await sleep(backoffDelayMs(failures, SUBSCRIPTION_BACKOFF), signal);
          continue;
        }
        for (const row of rows) {
          if (matchesPrefixes(row.stream_id, prefixes)) {
            const event = decodeOrReport(toRecorded, row, options);
            if (event) {
              const delivered = deliver(event, handler, signal, options.onHandlerError);
              if (delivered !== true && !(await delivered)) return;
            }
          }
          cursor = [row.tx, row.position];
        }
        if (rows.length < BATCH_SIZE && wakeUps === wakeUpsBefore && !signal.aborted)
          await waitForAppend(signal);
      }
    });
  }

  return {
    async append(streamId, events, expected) {
      const encoded = checkAppend(streamId, events, expected);
      const result = await call('append', () => append(streamId, events, encoded, expected));
      wakeAll();
      return result;
    },

    async readStream(streamId, options = {}) {
      const { fromRevision, maxCount } = checkRead(streamId, options);
      const rows = await call('readStream', () =>
        query<EventRow>(
          `SELECT ${COLUMNS}, data::text AS data, metadata::text AS metadata FROM ${table}
           WHERE stream_id = $1 AND revision >= $2 ORDER BY revision LIMIT $3`,
          [streamId, fromRevision, Number.isFinite(maxCount) ? maxCount : null],
        ),
      );
      return rows.map(toRecorded);
    },

    subscribeAll(options, handler) {
      if (closed) throw new StoreUnavailable('subscribeAll: the event store is closed');
      return subscriptions.track(subscribe(options, handler));
    },

    async headPosition(options = {}) {
      const prefixes = options.streamPrefixes ?? [];
      const match = prefixes.length
        ? prefixes.map((_, i) => `stream_id LIKE $${i + 2}`).join(' OR ')
        : 'true';
      const [head] = await call('headPosition', () =>
        query<{ tx: string; position: string; matched: boolean; seen: string }>(
          `WITH recent AS (
             SELECT tx_id, position, (${match}) AS matched FROM ${table}
             ORDER BY tx_id DESC, position DESC LIMIT $1)
           SELECT tx_id::text AS tx, position, matched, (SELECT count(*) FROM recent) AS seen FROM recent
           ORDER BY matched DESC, tx_id DESC, position DESC LIMIT 1`,
          [HEAD_SCAN_LIMIT, ...prefixes.map(likePrefix)],
        ),
      );
      if (!head) return undefined;
      if (head.matched) return encodePosition(head.tx, head.position);
      if (Number(head.seen) < HEAD_SCAN_LIMIT) return undefined;
      // None of the newest HEAD_SCAN_LIMIT events matches: the oldest of them is an upper bound.
      const [oldest] = await call('headPosition', () =>
        query<{ tx: string; position: string }>(
          `SELECT tx_id::text AS tx, position FROM ${table} ORDER BY tx_id DESC, position DESC OFFSET $1 LIMIT 1`,
          [HEAD_SCAN_LIMIT - 1],
        ),
      );
      return oldest ? encodePosition(oldest.tx, oldest.position) : undefined;
    },

    async countAfter({ after, streamPrefixes = [], limit }) {
      const from = after === undefined ? ['0', '0'] : decodePosition(after);
      const match = streamPrefixes.map((_, i) => `stream_id LIKE $${i + 4}`).join(' OR ');
      const [row] = await call('countAfter', () =>
        query<{ count: string }>(
          `SELECT count(*) FROM (SELECT 1 FROM ${table}
           WHERE (tx_id, position) > ($1::xid8, $2::bigint)${match ? ` AND (${match})` : ''} LIMIT $3) AS n`,
          [from[0], from[1], limit, ...streamPrefixes.map(likePrefix)],
        ),
      );
      return Number(row!.count);
    },

    async ping() {
      await call('ping', () => query('SELECT 1'));
    },

    serviceLease(ttlMs = DEFAULT_LEASE_TTL_MS) {
      return postgresServiceLease(`${quoteSchema(options.schema)}.leases`, ttlMs, this.sharedSql());
    },

    sharedSql() {
      const on =
        (client: pg.Pool | pg.PoolClient) =>
        async <R extends Record<string, unknown>>(text: string, values: unknown[] = []) => {
          const result = await client.query<R>(text, values);
          return { rows: result.rows, rowCount: result.rowCount ?? 0 };
        };
      return {
        schema: quoteSchema(options.schema),
        query: (text, values) => call('shared state', () => on(pool)(text, values)),
        transaction: (work) => call('shared state', () => transaction((client) => work(on(client)))),
      };
    },

    async close() {
      if (closed) return;
      closed = true;
      await subscriptions.stopAll();
      await listener?.end().catch(() => {});
      await pool.end();
    },
  };
}

/** Maps what the server or the network says to the port's errors; anything else is a bug, rethrown. */
export function toStoreError(what: string, error: unknown): unknown {
  if (error instanceof StoreUnavailable || error instanceof WrongExpectedRevision) return error;
  if (error instanceof Error && isUnavailable(error))
    return new StoreUnavailable(`${what}: ${error.message}`, { cause: error });
  return error;
}

function isUnavailable(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  if (error instanceof pg.DatabaseError) return typeof code === 'string' && UNAVAILABLE_SQLSTATE.test(code);
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  // What pg itself says about a connection that timed out, ended or was never made.
  return /timeout|terminated|Connection ended|not queryable|Client was closed/i.test(error.message);
}

function quoteSchema(schema: string): string {
  return `"${schema}"`;
}

/** A LIKE pattern matching the stream ids that start with `prefix`. */
function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, '\\$&')}%`;
}

/** Decodes a row; one this port did not write (its data or metadata not a JSON object) is a ForeignEvent. */
function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    type: row.type,
    version: row.version,
    data: parseObject(row.data, 'data', row),
    metadata: parseObject(row.metadata, 'metadata', row) as EventMetadata,
    streamId: row.stream_id,
    revision: row.revision,
    position: encodePosition(row.tx, row.position),
    recordedAt: row.recorded_at.toISOString(),
  };
}

function parseObject(text: string | null, what: string, row: EventRow): Record<string, unknown> {
  const value: unknown = JSON.parse(text ?? 'null');
  if (!isJsonObject(value)) throw foreign(row, `its ${what} is not a JSON object`);
  return value;
}

function foreign(row: EventRow, reason: string): ForeignEvent {
  return new ForeignEvent({
    streamId: row.stream_id,
    revision: row.revision,
    position: encodePosition(row.tx, row.position),
    id: row.id,
    type: row.type,
    reason,
  });
}

/** Transaction id and position, zero-padded, so that positions compare in global order as strings. */
export function encodePosition(txId: string, position: string): string {
  return `${txId.padStart(DIGITS, '0')}-${position.padStart(DIGITS, '0')}`;
}

export function decodePosition(position: string): [string, string] {
  const match = POSITION_PATTERN.exec(position);
  if (!match) throw new RangeError(`not a position of this event store: ${position}`);
  return [BigInt(match[1]!).toString(), BigInt(match[2]!).toString()];
}
