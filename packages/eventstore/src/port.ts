/** The event store port: what every adapter (embedded SQLite, EventStoreDB/KurrentDB) guarantees. */

/** Who caused an event and why; copied into every event's metadata. */
export interface EventMetadata {
  correlationId: string;
  causationId?: string;
  /** `usr-` id of the acting service account. */
  actor?: string;
  /** `usr-` id of the user the service account acts for (svc-run-as), if any. */
  runAs?: string;
  /** ISO 8601 UTC time the command was decided. */
  timestamp: string;
  /** W3C trace context of the append (set by the tracing wrapper); the relay continues that trace. */
  traceparent?: string;
  [key: string]: unknown;
}

/**
 * The most one append may carry: the UTF-8 bytes of every event's id, type, JSON data and JSON
 * metadata, summed. Both adapters refuse more with AppendTooLarge before anything is written; the
 * KurrentDB server is configured with headroom above it (`MAX_APPEND_SIZE` in docker-compose.yml and
 * the test containers, see `KURRENTDB_SERVER`), so an append the port accepts is never refused there.
 */
export const MAX_APPEND_BYTES = 1024 * 1024;

/**
 * An event as it is appended. `id` is a UUID (checked: anything else is a RangeError); consumers
 * dedupe by it, and the store by it too: see `EventStore.append`.
 */
export interface NewEvent {
  id: string;
  type: string;
  /** Schema version of `data` for this `type`; old versions stay readable. */
  version: number;
  data: Record<string, unknown>;
  metadata: EventMetadata;
}

/** An event as it is read back. */
export interface RecordedEvent extends NewEvent {
  streamId: string;
  /** 1-based position of the event inside its stream (the stream's revision after it). */
  revision: number;
  /** Opaque position in the whole store; a subscription resumes after it. Compares in store order as a string. */
  position: string;
  /** ISO 8601 UTC time the store recorded it. */
  recordedAt: string;
}

/**
 * What the appender believes the stream holds: the number of events in it (0 = no stream yet),
 * or 'any' to skip the check. A stale number fails with WrongExpectedRevision and writes nothing.
 */
export type ExpectedRevision = number | 'any';

export interface AppendResult {
  /** Number of events in the stream after the append (= revision of the last appended event). */
  revision: number;
  /** Position of the last appended event. */
  position: string;
}

export interface ReadStreamOptions {
  /** First revision to return (1-based, inclusive); default 1. */
  fromRevision?: number;
  /** At most this many events. */
  maxCount?: number;
}

export interface SubscribeAllOptions {
  /** Resume after this position; undefined starts from the very first event. */
  after?: string;
  /** Only streams whose id starts with one of these prefixes (e.g. `account-`). */
  streamPrefixes?: string[];
  /** Told about each failed handler call (e.g. to log it) before the same event is retried. */
  onHandlerError?: (error: unknown, event: RecordedEvent, attempt: number) => void;
  /**
   * Told when the subscription failed (the engine dropped it, never confirmed it, could not be
   * read) before it resumes after the last handled event, waiting longer after each consecutive
   * failure (capped exponential back-off); `attempt` counts them and starts again after an event.
   */
  onSubscriptionError?: (error: unknown, attempt: number) => void;
  /**
   * Told about a foreign event in a subscribed stream, one this port cannot decode (written by
   * another client: not JSON, or its data or metadata not a JSON object). The policy: it is not
   * delivered, it is reported here, and the subscription moves on past it.
   */
  onForeignEvent?: (event: ForeignEventInfo) => void;
}

/** Where a foreign event is, and why it cannot be decoded. */
export interface ForeignEventInfo {
  streamId: string;
  revision: number;
  position: string;
  id: string;
  type: string;
  reason: string;
}

/**
 * Called once per event, in store order. The subscription awaits it before the next event;
 * when it throws, the subscription retries the same event (with back-off) and never skips it.
 */
export type EventHandler = (event: RecordedEvent) => Promise<void>;

export interface CountAfterOptions {
  after?: string;
  streamPrefixes?: string[];
  /** Counting stops here: a backlog this large is reported as this number. */
  limit: number;
}

export interface Subscription {
  /** Stops after the event in hand; resolves once no handler call runs. */
  stop(): Promise<void>;
}

export interface EventStore {
  /**
   * Appends at least one event atomically: all are written, or none. An append refused with
   * StoreUnavailable may or may not have been written (the engine did not answer in time):
   * appending the very same events (same ids, in the same order) with the same expected revision
   * again is safe. When they are already stored there, nothing is written and the first append's
   * result is answered.
   */
  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /**
   * Events of one stream in order; an empty array for a stream that does not exist or was deleted.
   * Each event carries its revision as the store numbers it: after the engine truncated the start of
   * a stream (KurrentDB `$tb`), the first event read may have a revision above `fromRevision`, so a
   * reader takes the stream's revision from its last event, never from counting. A foreign event
   * (see `onForeignEvent`) in the stream fails the read with ForeignEvent: a stream the service
   * owns that holds one cannot be folded.
   */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Catch-up subscription over all streams: past events after `after`, then live ones. */
  subscribeAll(options: SubscribeAllOptions, handler: EventHandler): Subscription;
  /**
   * Position of the newest event in a stream with one of `streamPrefixes` (any stream when absent),
   * or undefined when there is none: a catch-up subscription has caught up once it handled it.
   * The engine may look at no more than the newest HEAD_SCAN_LIMIT events of the whole store: when
   * none of them matches, the answer is the oldest position it looked at, an upper bound that is
   * never older than the newest match (so a caller waiting for it never stops too early).
   */
  headPosition(options?: { streamPrefixes?: string[] }): Promise<string | undefined>;
  /**
   * How many events in streams with one of `streamPrefixes` (any stream when absent) come after
   * `after` (all when undefined), counted up to `limit`: how far a catch-up subscription is behind.
   */
  countAfter(options: CountAfterOptions): Promise<number>;
  /** Resolves when the engine answers; throws StoreUnavailable otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The stream holds a different number of events than the appender expected. */
export class WrongExpectedRevision extends Error {
  override readonly name = 'WrongExpectedRevision';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number,
  ) {
    super(`stream ${streamId}: expected revision ${String(expected)}, actual ${actual}`);
  }
}

/** How many of the store's newest events `headPosition` may look at (see there). */
export const HEAD_SCAN_LIMIT = 10_000;

/** The events of one append are larger than MAX_APPEND_BYTES (or the engine's own limit); nothing was written. */
export class AppendTooLarge extends Error {
  override readonly name = 'AppendTooLarge';
  constructor(
    readonly streamId: string,
    readonly maxBytes: number,
    /** The append's size as counted by the port, when known (the engine does not say). */
    readonly bytes?: number,
  ) {
    super(`append to ${streamId}: ${bytes ?? 'more than'} bytes, at most ${maxBytes} in one append`);
  }
}

/** A stream holds an event this port cannot decode (see `SubscribeAllOptions.onForeignEvent`). */
export class ForeignEvent extends Error {
  override readonly name = 'ForeignEvent';
  constructor(readonly event: ForeignEventInfo) {
    super(
      `event ${event.id} (${event.type}) in ${event.streamId} at revision ${event.revision}: ${event.reason}`,
    );
  }
}

/** The engine cannot be reached or did not answer in time. */
export class StoreUnavailable extends Error {
  override readonly name = 'StoreUnavailable';
}

/**
 * Work that one process of a service does at a time on a store its processes share (the relay, audit
 * checkpoints): a named lease with a time to live, held by one holder, which carries the work's
 * position (the relay's checkpoint) so that the next holder resumes where the last one saved. A
 * holder that stops renewing loses it after `ttlMs`.
 */
export interface ServiceLease {
  readonly ttlMs: number;
  /**
   * Takes the lease for `holder` when it is free, expired or already its own: the checkpoint saved
   * with it (undefined when none was), or false while another holder has it.
   */
  claim(name: string, holder: string): Promise<{ position?: string } | false>;
  /** Extends the lease and saves `position` with it; false when it is no longer `holder`'s. */
  renew(name: string, holder: string, position: string | undefined): Promise<boolean>;
  /** Saves `position` and frees the lease at once, when it is still `holder`'s. */
  release(name: string, holder: string, position: string | undefined): Promise<void>;
}
