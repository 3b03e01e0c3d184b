/** Distributed event store on EventStoreDB/KurrentDB through @eventstore/db-client. */
import {
  type AllStreamSubscription,
  ANY,
  type AppendExpectedRevision,
  BACKWARDS,
  END,
  type RecordedEvent as EsdbRecordedEvent,
  EventStoreDBClient,
  excludeSystemEvents,
  FORWARDS,
  isCommandError,
  jsonEvent,
  NO_STREAM,
  type Position,
  START,
  StreamNotFoundError,
  streamNameFilter,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import {
  backoffMs,
  deliver,
  matchesPrefixes,
  sleep,
  startSubscription,
  subscriptionRegistry,
} from './delivery';
import {
  type EventHandler,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
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
const UNAVAILABLE_ERROR_TYPES = new Set([
  'timeout',
  'deadline-exceeded',
  'unavailable',
  'cancelled',
  'not-leader',
]);
const POSITION_DIGITS = 20;
const COUNT_SCAN_LIMIT = 10_000;
const POSITION_PATTERN = /^(\d{20})-(\d{20})$/;

/**
 * Connects lazily: nothing is sent until the first call.
 *
 * @example
 * const store = createEsdbEventStore({ connectionString: 'esdb://localhost:2113?tls=false' });
 * await store.append('docForm-1', [event], 0);
 */
export function createEsdbEventStore(options: EsdbEventStoreOptions): EventStore {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const client = EventStoreDBClient.connectionString(options.connectionString);
  const subscriptions = subscriptionRegistry();
  let closed = false;

  function call<T>(what: string, run: () => Promise<T>, onTimeout?: () => void): Promise<T> {
    if (closed) return Promise.reject(new StoreUnavailable(`${what}: the event store is closed`));
    return withTimeout(what, timeoutMs, run, onTimeout);
  }

  function subscribe(options: SubscribeAllOptions, handler: EventHandler): Subscription {
    let cursor = options.after === undefined ? undefined : decodePosition(options.after);
    const filter = options.streamPrefixes?.length
      ? streamNameFilter({ prefixes: options.streamPrefixes })
      : excludeSystemEvents();

    return startSubscription(async (signal) => {
      let failures = 0;
      while (!signal.aborted) {
        const subscription = client.subscribeToAll({ fromPosition: cursor ?? START, filter });
        // The client emits errors without ending the stream; destroying it ends the iteration below.
        subscription.on('error', (error) => subscription.destroy(error));
        const cancel = () => {
          subscription.unsubscribe().catch(() => {});
          subscription.destroy();
        };
        signal.addEventListener('abort', cancel, { once: true });
        try {
          await confirmed(subscription, timeoutMs);
          failures = 0;
          for await (const { event } of subscription) {
            // The engine resumes after `fromPosition`; the check also guards against a repeat on resubscribe.
            if (!event?.position || (cursor && comparePositions(event.position, cursor) <= 0)) continue;
            if (!isSystemEvent(event) && matchesPrefixes(event.streamId, options.streamPrefixes)) {
              const handled = await deliver(toRecorded(event), handler, signal, options.onHandlerError);
              if (!handled) break;
            }
            cursor = event.position;
          }
        } catch {
          // Dropped, never confirmed, or an event could not be read: resubscribe after the last handled one.
        } finally {
          signal.removeEventListener('abort', cancel);
          cancel();
        }
        await sleep(backoffMs(++failures), signal);
      }
    });
  }

  return {
    async append(streamId, events, expected) {
      checkAppend(streamId, events, expected);
      const data = events.map((event) =>
        jsonEvent({
          id: event.id,
          type: event.type,
          data: event.data,
          metadata: { ...event.metadata, [VERSION_KEY]: event.version },
        }),
      );
      try {
        const result = await call('append', () =>
          client.appendToStream(streamId, data, { expectedRevision: toExpectedVersion(expected) }),
        );
        return {
          revision: Number(result.nextExpectedRevision) + 1,
          position: encodePosition(requirePosition(result.position)),
        };
      } catch (error) {
        if (error instanceof WrongExpectedVersionError) {
          const actual = error.actualVersion === NO_STREAM ? 0 : Number(error.actualVersion) + 1;
          throw new WrongExpectedRevision(streamId, expected, actual);
        }
        throw error;
      }
    },

    async readStream(streamId, options = {}) {
      const { fromRevision, maxCount } = checkRead(streamId, options);
      if (maxCount === 0) return [];
      const stream = client.readStream(streamId, {
        fromRevision: BigInt(fromRevision - 1),
        ...(Number.isFinite(maxCount) ? { maxCount } : {}),
      });
      return call(
        'readStream',
        async () => {
          const events: RecordedEvent[] = [];
          try {
            for await (const resolved of stream) {
              if (resolved.event) events.push(toRecorded(resolved.event));
            }
          } catch (error) {
            if (error instanceof StreamNotFoundError) return [];
            throw error;
          }
          return events;
        },
        () => void stream.cancel().catch(() => {}),
      );
    },

    subscribeAll(options, handler) {
      if (closed) throw new StoreUnavailable('subscribeAll: the event store is closed');
      return subscriptions.track(subscribe(options, handler));
    },

    async headPosition(options = {}) {
      const read = client.readAll({ direction: BACKWARDS, fromPosition: END });
      return call(
        'headPosition',
        async () => {
          for await (const resolved of read) {
            const event = resolved.event;
            if (!event || event.type.startsWith('$') || event.streamId.startsWith('$')) continue;
            if (matchesPrefixes(event.streamId, options.streamPrefixes)) {
              return encodePosition(requirePosition(event.position));
            }
          }
          return undefined;
        },
        () => void read.cancel().catch(() => {}),
      );
    },

    async countAfter({ after, streamPrefixes, limit }) {
      // $all has no server-side filter on reads: the scan is bounded, so a store busy with other
      // services' streams reports at most what it saw in COUNT_SCAN_LIMIT events.
      const read = client.readAll({
        direction: FORWARDS,
        fromPosition: after === undefined ? START : decodePosition(after),
        maxCount: COUNT_SCAN_LIMIT,
      });
      return call(
        'countAfter',
        async () => {
          let count = 0;
          for await (const resolved of read) {
            const event = resolved.event;
            if (!event || event.type.startsWith('$') || event.streamId.startsWith('$')) continue;
            // Reading from a position includes the event at it.
            if (after !== undefined && encodePosition(requirePosition(event.position)) <= after) continue;
            if (matchesPrefixes(event.streamId, streamPrefixes) && ++count >= limit) break;
          }
          return count;
        },
        () => void read.cancel().catch(() => {}),
      );
    },

    async ping() {
      const read = client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 });
      await call(
        'ping',
        () => read.toArray(),
        () => void read.cancel().catch(() => {}),
      );
    },

    async close() {
      if (closed) return;
      closed = true;
      await subscriptions.stopAll();
      await withTimeout('close', timeoutMs, () => client.dispose());
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

/** Races the call against a timer; a late answer is dropped, engine errors become the port's errors. */
async function withTimeout<T>(
  what: string,
  timeoutMs: number,
  run: () => Promise<T>,
  onTimeout?: () => void,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout?.();
      reject(new StoreUnavailable(`${what}: no answer from the event store within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([run(), timeout]);
  } catch (error) {
    throw isUnavailable(error)
      ? new StoreUnavailable(`${what}: ${(error as Error).message}`, { cause: error })
      : error;
  } finally {
    clearTimeout(timer);
  }
}

function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error) || error instanceof StoreUnavailable) return false;
  if (isCommandError(error)) return UNAVAILABLE_ERROR_TYPES.has(error.type);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' && UNAVAILABLE_GRPC_CODES.has(code);
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

function toRecorded(event: EsdbRecordedEvent): RecordedEvent {
  if (!event.isJson) throw new TypeError(`event ${event.id} in ${event.streamId} is not JSON`);
  const { [VERSION_KEY]: version, ...metadata } = (event.metadata ?? {}) as Record<string, unknown>;
  return {
    id: event.id,
    type: event.type,
    // Events appended by other writers carry no schema version: they count as the first.
    version: typeof version === 'number' ? version : 1,
    data: event.data as Record<string, unknown>,
    metadata: metadata as EventMetadata,
    streamId: event.streamId,
    revision: Number(event.revision) + 1,
    position: encodePosition(requirePosition(event.position)),
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
