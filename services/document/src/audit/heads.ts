/**
 * The head (revision, hash) of every document stream, kept in the service's local.db (`audit_heads`)
 * from a catch-up subscription to its event store: events applied in batched transactions with the
 * subscription's position (kit's checkpoint store), so a restart resumes after the last applied event
 * (an event at or before it is a repeat and is skipped). A head written since the last audit checkpoint
 * is marked changed. Beside the heads, `audit_buckets` keeps each root bucket's digest and head count
 * (packages/audit bucket-root.ts), recomputed only for buckets with changed heads.
 */
import { bucketDigest, bucketOf, ROOT_BUCKETS, rootOfBuckets, type StreamHead } from '@docflow/audit';
import type { EventStore, RecordedEvent, Subscription } from '@docflow/eventstore';
import { checkpointStore, type LocalDb } from '@docflow/kit/eventsourcing';
import { measuredGauge, trackBacklog } from '@docflow/kit/http';

const NAME = 'audit-heads';
const PREFIXES = ['docForm-'];
/** Events per transaction at most. */
const BATCH_SIZE = 2_000;
const FLUSH_RETRY_MS = 1_000;
const EMPTY_BUCKET = bucketDigest([]);

/**
 * Events appended while the heads were not followed (a directory filled offline) are applied after the
 * start, on the event loop that serves requests: how many are left.
 */
const behind = measuredGauge(
  'docflow_audit_heads_behind_events',
  'Document events stored but not yet applied to the audit heads (measured on scrape)',
  ['service'],
);

export interface StreamHeads {
  start(): void;
  stop(): Promise<void>;
  /** Whether every document event stored when asked has been applied. */
  caughtUp(): Promise<boolean>;
  /** Runs `take` with the heads held still: nothing the subscription delivers is applied until it settles. */
  holding<T>(take: () => Promise<T>): Promise<T>;
  /** How many heads changed since the last checkpoint. */
  changedCount(): number;
  /** Brings the digests of the buckets with changed heads up to date: the root over all heads, their number. */
  root(): { root: string; streams: number };
  /** The changed heads, in pages of at most `size`, by bucket then stream id. */
  changed(size: number): Generator<StreamHead[]>;
  /** Every head is anchored by the checkpoint `checkpointId`: none is changed any more. */
  anchored(checkpointId: string): void;
  /** The last checkpoint taken; null before the first. */
  previousCheckpointId(): string | null;
  /** Every document stream's id. */
  streamIds(): string[];
}

export function followStreamHeads(
  store: EventStore,
  db: LocalDb,
  onError: (error: unknown) => void = () => {},
): StreamHeads {
  db.exec(`
    CREATE TABLE IF NOT EXISTS audit_heads (
      bucket INTEGER NOT NULL, stream_id TEXT NOT NULL, revision INTEGER NOT NULL, hash TEXT NOT NULL,
      changed INTEGER NOT NULL, PRIMARY KEY (bucket, stream_id)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS audit_heads_changed ON audit_heads (bucket, stream_id) WHERE changed = 1;
    CREATE TABLE IF NOT EXISTS audit_buckets (
      bucket INTEGER PRIMARY KEY, digest TEXT NOT NULL, heads INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS audit_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  `);
  const positions = checkpointStore(db);
  const upsertHead = db.prepare(
    `INSERT INTO audit_heads (bucket, stream_id, revision, hash, changed) VALUES (?, ?, ?, ?, 1)
     ON CONFLICT (bucket, stream_id) DO UPDATE SET revision = excluded.revision, hash = excluded.hash, changed = 1`,
  );
  const changedBuckets = db.prepare<[], { bucket: number }>(
    'SELECT DISTINCT bucket FROM audit_heads WHERE changed = 1',
  );
  const headsOf = db.prepare<[number], StreamHead>(
    'SELECT stream_id AS streamId, revision, hash FROM audit_heads WHERE bucket = ?',
  );
  const upsertBucket = db.prepare(
    'INSERT OR REPLACE INTO audit_buckets (bucket, digest, heads) VALUES (?, ?, ?)',
  );
  const countChanged = db.prepare<[], { n: number }>(
    'SELECT COUNT(*) AS n FROM audit_heads WHERE changed = 1',
  );
  const changedPage = db.prepare<[number, string, number], StreamHead>(
    `SELECT stream_id AS streamId, revision, hash, bucket FROM audit_heads
     WHERE changed = 1 AND (bucket, stream_id) > (?, ?) ORDER BY bucket, stream_id LIMIT ?`,
  );
  const loadState = db.prepare<[string], { value: string }>('SELECT value FROM audit_state WHERE key = ?');
  const saveState = db.prepare('INSERT OR REPLACE INTO audit_state (key, value) VALUES (?, ?)');

  const digests: string[] = Array.from({ length: ROOT_BUCKETS }, () => EMPTY_BUCKET);
  const counts: number[] = Array.from({ length: ROOT_BUCKETS }, () => 0);
  for (const row of db
    .prepare<[], { bucket: number; digest: string; heads: number }>(
      'SELECT bucket, digest, heads FROM audit_buckets',
    )
    .all()) {
    digests[row.bucket] = row.digest;
    counts[row.bucket] = row.heads;
  }

  const applyTx = db.transaction((events: readonly RecordedEvent[]) => {
    const after = positions.load(NAME) ?? '';
    for (const event of events) {
      if (event.position <= after) continue;
      const hash = event.metadata.hash;
      upsertHead.run(
        bucketOf(event.streamId),
        event.streamId,
        event.revision,
        typeof hash === 'string' ? hash : '',
      );
    }
    const last = events[events.length - 1]!.position;
    if (last > after) positions.save(NAME, last);
  });

  const rootTx = db.transaction(() => {
    for (const { bucket } of changedBuckets.all()) {
      const heads = headsOf.all(bucket);
      digests[bucket] = bucketDigest(heads);
      counts[bucket] = heads.length;
      upsertBucket.run(bucket, digests[bucket], heads.length);
    }
  });

  const unmark = db.prepare('UPDATE audit_heads SET changed = 0 WHERE changed = 1');
  const anchoredTx = db.transaction((checkpointId: string) => {
    unmark.run();
    saveState.run('previousCheckpointId', checkpointId);
  });

  let subscription: Subscription | undefined;
  let untrackBehind: (() => void) | undefined;
  let pending: RecordedEvent[] = [];
  let flushTimer: NodeJS.Timeout | undefined;
  let held: Promise<unknown> | undefined;

  function flush() {
    if (held || pending.length === 0) return;
    applyTx(pending);
    pending = [];
  }

  /** Applies what is pending once the subscription has let go; after a failure, again a while later. */
  function scheduleFlush(delayMs = 0) {
    flushTimer ??= setTimeout(() => {
      flushTimer = undefined;
      try {
        flush();
      } catch (error) {
        onError(error);
        scheduleFlush(FLUSH_RETRY_MS);
      }
    }, delayMs);
  }

  return {
    start() {
      untrackBehind ??= trackBacklog(behind, 'document', {
        store,
        checkpoints: positions,
        name: NAME,
        streamPrefixes: PREFIXES,
      });
      subscription ??= store.subscribeAll(
        { after: positions.load(NAME), streamPrefixes: PREFIXES, onSubscriptionError: onError },
        async (event) => {
          // A retried event (the handler threw for it) is still pending.
          if (pending[pending.length - 1]?.id !== event.id) pending.push(event);
          if (pending.length < BATCH_SIZE) return scheduleFlush();
          while (held) await held.catch(() => {});
          flush(); // throws: the subscription retries this event
          await new Promise((resolve) => setImmediate(resolve));
        },
      );
    },
    async stop() {
      untrackBehind?.();
      untrackBehind = undefined;
      await subscription?.stop();
      subscription = undefined;
      clearTimeout(flushTimer);
      flushTimer = undefined;
      await held?.catch(() => {});
      flush();
    },
    async caughtUp() {
      const head = await store.headPosition({ streamPrefixes: PREFIXES });
      return head === undefined || (positions.load(NAME) ?? '') >= head;
    },
    async holding(take) {
      while (held) await held.catch(() => {});
      const taking = take();
      held = taking;
      try {
        return await taking;
      } finally {
        held = undefined;
        scheduleFlush();
      }
    },
    changedCount: () => countChanged.get()!.n,
    root() {
      rootTx();
      return { root: rootOfBuckets(digests), streams: counts.reduce((a, b) => a + b, 0) };
    },
    *changed(size) {
      let after: [number, string] = [-1, ''];
      for (;;) {
        const page = changedPage.all(after[0], after[1], size) as (StreamHead & { bucket: number })[];
        if (page.length === 0) return;
        const last = page[page.length - 1]!;
        after = [last.bucket, last.streamId];
        yield page.map(({ streamId, revision, hash }) => ({ streamId, revision, hash }));
      }
    },
    anchored: (checkpointId) => anchoredTx(checkpointId),
    previousCheckpointId: () => loadState.get('previousCheckpointId')?.value ?? null,
    streamIds: () => db.prepare<[], string>('SELECT stream_id FROM audit_heads').pluck().all() as string[],
  };
}
