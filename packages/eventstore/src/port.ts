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

/** An event as it is appended. `id` is a uuid; consumers dedupe by it. */
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
  /** Appends at least one event atomically: all are written, or none. */
  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /** Events of one stream in order; an empty array for a stream that does not exist. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Catch-up subscription over all streams: past events after `after`, then live ones. */
  subscribeAll(options: SubscribeAllOptions, handler: EventHandler): Subscription;
  /**
   * Position of the newest event in a stream with one of `streamPrefixes` (any stream when absent),
   * or undefined when there is none: a catch-up subscription has caught up once it handled it.
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

/** The engine cannot be reached or did not answer in time. */
export class StoreUnavailable extends Error {
  override readonly name = 'StoreUnavailable';
}
