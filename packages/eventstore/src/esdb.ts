/** Distributed event store on EventStoreDB/KurrentDB through @eventstore/db-client. */
import { backoffDelayMs, TimeoutError, withTimeout } from '@docflow/timing';
import {
  type AllStreamSubscription,
  ANY,
  type AppendExpectedRevision,
  BACKWARDS,
  END,
  ErrorType,
  type AppendResult as EsdbAppendResult,
  type RecordedEvent as EsdbRecordedEvent,
  EventStoreDBClient,
  excludeSystemEvents,
  FORWARDS,
  isCommandError,
  jsonEvent,
  NO_STREAM,
  type Position,
  START,
  StreamDeletedError,
  type StreamingRead,
  StreamNotFoundError,
  streamNameFilter,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
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
  AppendTooLarge,
  type EventHandler,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  ForeignEvent,
  HEAD_SCAN_LIMIT,
  type RecordedEvent,
  StoreUnavailable,
  type SubscribeAllOptions,
  type Subscription,
  WrongExpectedRevision,
} from './port';
import { checkAppend, checkRead } from './validate';

export interface EsdbEventStoreOptions {
  /** e.g. `esdb://localhost:2113?tls=false`. */
  connectionString: string;
  /** Each call to the engine fails with StoreUnavailable when it has not answered after this long; default 5000. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5_000;
/** Key under which the event's schema version travels in the engine's metadata. */
const VERSION_KEY = '$schemaVersion';
/** gRPC status codes meaning the engine was not reached or did not answer: CANCELLED, DEADLINE_EXCEEDED, UNAVAILABLE. */
const UNAVAILABLE_GRPC_CODES = new Set([1, 4, 14]);
const UNAVAILABLE_ERROR_TYPES = new Set<string>([
  ErrorType.TIMEOUT,
  ErrorType.DEADLINE_EXCEEDED,
  ErrorType.UNAVAILABLE,
  ErrorType.CANCELLED,
  ErrorType.NOT_LEADER,
]);
/**
 * The server's answers while it starts, elects a leader or sheds load. Over batch append they come
 * without a typed detail, and the client turns them into an UnknownError that only says this.
 */
const NOT_READY_OR_BUSY = /server is (not ready|too busy|busy)/i;
const POSITION_DIGITS = 20;
const COUNT_SCAN_LIMIT = 10_000;
const POSITION_PATTERN = /^(\d{20})-(\d{20})$/;

/**
 * Connects lazily: nothing is sent until the first call. Every call carries the client's `deadline`
 * and is also raced against the same timeout here (the 6.x client ignores the deadline on streaming
 * reads, and has been seen to hang on a silent server whatever its deadline).
 *
 * @example
 * const store = createEsdbEventStore({ connectionString: 'esdb://localhost:2113?tls=false' });
 * await store.append('docForm-1', [event], 0);
 */
export function createEsdbEventStore(options: EsdbEventStoreOptions): EventStore {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const client = EventStoreDBClient.connectionString(options.connectionString);
  const subscriptions = subscriptionRegistry();
  /** Ends each read still open (on close). */
  const openReads = new Set<(reason?: Error) => void>();
  let closed = false;

  function call<T>(what: string, run: (deadline: number) => Promise<T>): Promise<T> {
    if (closed) return Promise.reject(new StoreUnavailable(`${what}: the event store is closed`));
    return answeredWithin(what, timeoutMs, () => run(timeoutMs));
  }

  /**
   * Opens a streaming read only when it runs, and ends it (cancelled on the server, destroyed here)
   * once it is consumed, fails, times out or the store closes: no gRPC read outlives its call.
   */
  function read<E, T>(
    what: string,
    open: (deadline: number) => StreamingRead<E>,
    consume: (stream: StreamingRead<E>) => Promise<T>,
  ): Promise<T> {
    if (closed) return Promise.reject(new StoreUnavailable(`${what}: the event store is closed`));
    let stream: StreamingRead<E> | undefined;
    /** `reason` fails a read still being consumed (on close), so it never answers from half a scan. */
    const end = (reason?: Error) => {
      if (!stream) return;
      const ending = stream;
      stream = undefined;
      openReads.delete(end);
      ending.cancel().catch(() => {});
      ending.destroy(reason);
    };
    return answeredWithin(
      what,
      timeoutMs,
      async () => {
        stream = open(timeoutMs);
        openReads.add(end);
        try {
          return await consume(stream);
        } finally {
          end();
        }
      },
      () => end(),
    );
  }

  function subscribe(options: SubscribeAllOptions, handler: EventHandler): Subscription {
    let cursor = options.after === undefined ? undefined : decodePosition(options.after);
    const filter = options.streamPrefixes?.length
      ? streamNameFilter({ prefixes: options.streamPrefixes })
      : excludeSystemEvents();

    return startSubscription(async (signal) => {
      // Consecutive failures: reset only once an event got through, so a subscription that is
      // confirmed and then fails at once still waits longer each time.
      let failures = 0;
      while (!signal.aborted) {
        // No deadline: a subscription lives until stopped; the confirmation below is bounded instead.
        const subscription = client.subscribeToAll({ fromPosition: cursor ?? START, filter });
        // The client emits errors without ending the stream; destroying it ends the iteration below.
        subscription.on('error', (error) => subscription.destroy(error));
        const cancel = () => {
          subscription.unsubscribe().catch(() => {});
          subscription.destroy();
        };
        signal.addEventListener('abort', cancel, { once: true });
        let failure: unknown = new StoreUnavailable('subscribeAll: the engine ended the subscription');
        try {
          await confirmed(subscription, timeoutMs);
          for await (const { event } of subscription) {
            // The engine resumes after `fromPosition`; the check also guards against a repeat on resubscribe.
            if (!event?.position || (cursor && comparePositions(event.position, cursor) <= 0)) continue;
            if (!isSystemEvent(event) && matchesPrefixes(event.streamId, options.streamPrefixes)) {
              const recorded = decodeOrReport(toRecorded, event, options);
              if (recorded && !(await deliver(recorded, handler, signal, options.onHandlerError))) break;
            }
            cursor = event.position;
            failures = 0;
          }
        } catch (error) {
          failure = toStoreError('subscribeAll', error);
        } finally {
          signal.removeEventListener('abort', cancel);
          cancel();
        }
        if (signal.aborted) break;
        options.onSubscriptionError?.(failure, ++failures);
        await sleep(backoffDelayMs(failures, SUBSCRIPTION_BACKOFF), signal);
      }
    });
  }

  /** The position of the event at `revision` (1-based) of a stream, read back from the store. */
  async function positionAt(streamId: string, revision: number): Promise<string> {
    const [event] = await readEvents(streamId, revision, 1);
    if (!event)
      throw new TypeError(`${streamId} has no event at revision ${revision} right after appending it`);
    return event.position;
  }

  function readEvents(streamId: string, fromRevision: number, maxCount: number): Promise<RecordedEvent[]> {
    return read(
      'readStream',
      (deadline) =>
        client.readStream(streamId, {
          fromRevision: BigInt(fromRevision - 1),
          ...(Number.isFinite(maxCount) ? { maxCount } : {}),
          deadline,
        }),
      async (stream) => {
        const events: RecordedEvent[] = [];
        try {
          for await (const resolved of stream) {
            if (resolved.event) events.push(toRecorded(resolved.event));
          }
        } catch (error) {
          // Never written, deleted, or deleted for good (tombstoned): the port reads each as empty.
          if (error instanceof StreamNotFoundError || error instanceof StreamDeletedError) return [];
          throw error;
        }
        return events;
      },
    );
  }

  return {
    async append(streamId, events, expected) {
      checkAppend(streamId, events, expected);
      // The ids are the caller's: a retry of an append whose outcome was unknown sends the same ids,
      // and the engine's idempotent append writes them once.
      const data = events.map((event) =>
        jsonEvent({
          id: event.id,
          type: event.type,
          data: event.data,
          metadata: { ...event.metadata, [VERSION_KEY]: event.version },
        }),
      );
      let result: EsdbAppendResult;
      try {
        result = await call('append', (deadline) =>
          client.appendToStream(streamId, data, { expectedRevision: toExpectedVersion(expected), deadline }),
        );
      } catch (error) {
        if (error instanceof WrongExpectedVersionError) {
          const actual = error.actualVersion === NO_STREAM ? 0 : Number(error.actualVersion) + 1;
          throw new WrongExpectedRevision(streamId, expected, actual);
        }
        throw toStoreError('append', error, streamId);
      }
      const revision = Number(result.nextExpectedRevision) + 1;
      // An append the engine recognised as a repeat may come back without a position.
      const position = result.position
        ? encodePosition(result.position)
        : await positionAt(streamId, revision);
      return { revision, position };
    },

    async readStream(streamId, options = {}) {
      const { fromRevision, maxCount } = checkRead(streamId, options);
      if (maxCount === 0) return [];
      return readEvents(streamId, fromRevision, maxCount);
    },

    subscribeAll(options, handler) {
      if (closed) throw new StoreUnavailable('subscribeAll: the event store is closed');
      return subscriptions.track(subscribe(options, handler));
    },

    async headPosition(options = {}) {
      // $all has no server-side filter on reads in this client: the scan is bounded (see the port).
      return read(
        'headPosition',
        (deadline) =>
          client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: HEAD_SCAN_LIMIT, deadline }),
        async (stream) => {
          let oldest: Position | undefined;
          let seen = 0;
          for await (const resolved of stream) {
            const event = resolved.event;
            if (!event?.position) continue;
            seen++;
            oldest = event.position;
            if (!isSystemEvent(event) && matchesPrefixes(event.streamId, options.streamPrefixes)) {
              return encodePosition(event.position);
            }
          }
          // Scanned to the very first event: none matches. Stopped at the limit: an upper bound.
          return seen < HEAD_SCAN_LIMIT || !oldest ? undefined : encodePosition(oldest);
        },
      );
    },

    async countAfter({ after, streamPrefixes, limit }) {
      // $all has no server-side filter on reads: the scan is bounded, so a store busy with other
      // services' streams reports at most what it saw in COUNT_SCAN_LIMIT events.
      return read(
        'countAfter',
        (deadline) =>
          client.readAll({
            direction: FORWARDS,
            fromPosition: after === undefined ? START : decodePosition(after),
            maxCount: COUNT_SCAN_LIMIT,
            deadline,
          }),
        async (stream) => {
          let count = 0;
          for await (const resolved of stream) {
            const event = resolved.event;
            if (!event || isSystemEvent(event)) continue;
            // Reading from a position includes the event at it.
            if (after !== undefined && encodePosition(requirePosition(event.position)) <= after) continue;
            if (matchesPrefixes(event.streamId, streamPrefixes) && ++count >= limit) break;
          }
          return count;
        },
      );
    },

    async ping() {
      await read(
        'ping',
        (deadline) => client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1, deadline }),
        (stream) => stream.toArray(),
      );
    },

    async close() {
      if (closed) return;
      closed = true;
      await subscriptions.stopAll();
      for (const end of [...openReads])
        end(new StoreUnavailable('the event store was closed during the call'));
      await answeredWithin('close', timeoutMs, () => client.dispose());
    },
  };
}

/** Encodes an engine position so that positions compare in log order as strings. */
export function encodePosition(position: Position): string {
  const pad = (n: bigint) => n.toString().padStart(POSITION_DIGITS, '0');
  return `${pad(position.commit)}-${pad(position.prepare)}`;
}

export function decodePosition(position: string): Position {
  const match = POSITION_PATTERN.exec(position);
  if (!match) throw new RangeError(`not a position of this event store: ${position}`);
  return { commit: BigInt(match[1]!), prepare: BigInt(match[2]!) };
}

/** Bounds a call: no answer within `timeoutMs` is StoreUnavailable, engine errors become the port's errors. */
async function answeredWithin<T>(
  what: string,
  timeoutMs: number,
  run: () => Promise<T>,
  onTimeout?: () => void,
): Promise<T> {
  try {
    return await withTimeout(run(), timeoutMs, what, onTimeout);
  } catch (error) {
    if (!(error instanceof TimeoutError)) throw toStoreError(what, error);
    throw new StoreUnavailable(`${what}: no answer from the event store within ${timeoutMs} ms`, {
      cause: error,
    });
  }
}

/**
 * Maps what the engine or its client threw to the port's errors: not reached, not answering, not
 * ready, busy → StoreUnavailable; over the server's maximum append size → AppendTooLarge; anything
 * else (a bug, a refused argument) is left as it is.
 */
export function toStoreError(what: string, error: unknown, streamId = ''): unknown {
  if (!(error instanceof Error) || error instanceof StoreUnavailable || error instanceof AppendTooLarge)
    return error;
  if (isCommandError(error) && error.type === ErrorType.MAXIMUM_APPEND_SIZE_EXCEEDED)
    return new AppendTooLarge(streamId, error.maxAppendSize);
  const code = (error as { code?: unknown }).code;
  const unavailable =
    (isCommandError(error) && UNAVAILABLE_ERROR_TYPES.has(error.type)) ||
    (typeof code === 'number' && UNAVAILABLE_GRPC_CODES.has(code)) ||
    NOT_READY_OR_BUSY.test(error.message);
  return unavailable ? new StoreUnavailable(`${what}: ${error.message}`, { cause: error }) : error;
}

/** Waits for the engine to confirm the subscription, so a silent server counts as a failure. */
function confirmed(subscription: AllStreamSubscription, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      clearTimeout(timer);
      subscription.off('confirmation', onConfirmation).off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onConfirmation = () => settle();
    const onClose = () =>
      settle(new StoreUnavailable('subscribeAll: subscription closed before confirmation'));
    const timer = setTimeout(
      () => settle(new StoreUnavailable(`subscribeAll: not confirmed within ${timeoutMs} ms`)),
      timeoutMs,
    );
    subscription.once('confirmation', onConfirmation).once('close', onClose);
  });
}

function toExpectedVersion(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'any') return ANY;
  return expected === 0 ? NO_STREAM : BigInt(expected - 1);
}

/** Decodes an engine event; one this port did not write (see `onForeignEvent`) is a ForeignEvent. */
export function toRecorded(event: EsdbRecordedEvent): RecordedEvent {
  const position = encodePosition(requirePosition(event.position));
  const foreign = (reason: string) =>
    new ForeignEvent({
      streamId: event.streamId,
      revision: Number(event.revision) + 1,
      position,
      id: event.id,
      type: event.type,
      reason,
    });
  if (!event.isJson) throw foreign('it is not JSON');
  // The client hands malformed JSON over as the raw text, and metadata that is not JSON as bytes.
  if (!isJsonObject(event.data)) throw foreign('its data is not a JSON object');
  if (!isJsonObject(event.metadata)) throw foreign('its metadata is not a JSON object');
  const { [VERSION_KEY]: version, ...metadata } = event.metadata;
  return {
    id: event.id,
    type: event.type,
    // Events appended by other writers carry no schema version: they count as the first.
    version: typeof version === 'number' ? version : 1,
    data: event.data,
    metadata: metadata as EventMetadata,
    streamId: event.streamId,
    // The store's own number, not a count: a truncated stream starts above 1.
    revision: Number(event.revision) + 1,
    position,
    recordedAt: event.created.toISOString(),
  };
}

function requirePosition(position: Position | undefined): Position {
  if (!position)
    throw new TypeError('the event store sent no position: EventStoreDB 22.6 or newer is required');
  return position;
}

function isSystemEvent(event: EsdbRecordedEvent): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
}

function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  return a.prepare === b.prepare ? 0 : a.prepare < b.prepare ? -1 : 1;
}
