/** Bounds a wait: every timed wait in the workspace goes through here. */

/** A wait that took longer than its bound. */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/**
 * Settles like `promise`, or rejects with a TimeoutError after `ms`, calling `onTimeout` first (to stop
 * the work that will not be awaited any more). A late answer is dropped.
 *
 * @example await withTimeout(client.ping(), 2000, 'pinging the engine');
 */
export function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  what: string,
  onTimeout?: () => void,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout?.();
      reject(new TimeoutError(`${what} took longer than ${ms} ms`));
    }, ms);
  });
  return Promise.race([promise, timedOut]).finally(() => clearTimeout(timer));
}
