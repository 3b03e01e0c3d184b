/** What both adapters' subscriptions share: a stoppable loop, and per-event delivery that never skips. */
import { type BackoffPolicy, backoffDelayMs } from '@docflow/timing';
import {
  type EventHandler,
  ForeignEvent,
  type RecordedEvent,
  type SubscribeAllOptions,
  type Subscription,
} from './port';

/** The pause before a subscription tries again after consecutive failures: 50 ms doubling up to 5 s. */
export const SUBSCRIPTION_BACKOFF: BackoffPolicy = { initialMs: 50, maxMs: 5_000 };

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Calls the handler until it succeeds, backing off between attempts. True at once when a handler that
 * is not async returned; otherwise a promise, false when the subscription stopped before the event
 * was handled. (A replay delivers every event through here: the first attempt makes no promise of
 * its own.)
 */
export function deliver(
  event: RecordedEvent,
  handler: EventHandler,
  signal: AbortSignal,
  onHandlerError: SubscribeAllOptions['onHandlerError'],
): boolean | Promise<boolean> {
  if (signal.aborted) return false;
  let result: unknown;
  try {
    result = handler(event);
  } catch (error) {
    onHandlerError?.(error, event, 1);
    return retry(event, handler, signal, onHandlerError);
  }
  if (!(result instanceof Promise)) return true;
  return result.then(
    () => true,
    (error: unknown) => {
      onHandlerError?.(error, event, 1);
      return retry(event, handler, signal, onHandlerError);
    },
  );
}

/** The attempts after a failed first one. */
async function retry(
  event: RecordedEvent,
  handler: EventHandler,
  signal: AbortSignal,
  onHandlerError: SubscribeAllOptions['onHandlerError'],
): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    if (!(await sleep(backoffDelayMs(attempt, SUBSCRIPTION_BACKOFF), signal))) return false;
    try {
      await handler(event);
      return true;
    } catch (error) {
      onHandlerError?.(error, event, attempt + 1);
    }
  }
}

/**
 * Decodes an event for delivery. A foreign one is reported to `onForeignEvent` and answers
 * undefined: the port's policy is to skip it, so one undecodable event never stalls a subscription.
 */
export function decodeOrReport<R>(
  decode: (raw: R) => RecordedEvent,
  raw: R,
  options: Pick<SubscribeAllOptions, 'onForeignEvent'>,
): RecordedEvent | undefined {
  try {
    return decode(raw);
  } catch (error) {
    if (!(error instanceof ForeignEvent)) throw error;
    options.onForeignEvent?.(error.event);
    return undefined;
  }
}

/** A plain object as JSON.parse makes it (not an array, not bytes). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Runs `loop` until stop(); stop() resolves once the loop (and so any handler call) has returned. */
export function startSubscription(loop: (signal: AbortSignal) => Promise<void>): Subscription {
  const controller = new AbortController();
  const done = loop(controller.signal);
  return {
    stop() {
      controller.abort();
      return done;
    },
  };
}

/** Whether a stream id passes the `streamPrefixes` filter (no prefixes = every stream). */
export function matchesPrefixes(streamId: string, prefixes: readonly string[] | undefined): boolean {
  return !prefixes?.length || prefixes.some((prefix) => streamId.startsWith(prefix));
}

/** The live subscriptions of one store: each removes itself when stopped; `stopAll()` closes the rest. */
export function subscriptionRegistry() {
  const live = new Set<Subscription>();
  return {
    track(subscription: Subscription): Subscription {
      live.add(subscription);
      return {
        stop: async () => {
          live.delete(subscription);
          await subscription.stop();
        },
      };
    },
    async stopAll(): Promise<void> {
      await Promise.all([...live].map((subscription) => subscription.stop()));
      live.clear();
    },
  };
}
