/**
 * What SIGTERM and SIGINT do to a process: one graceful stop, however many times the signal arrives,
 * and an immediate exit only when asked for on purpose.
 */

/**
 * Signals within this long of the first are that same stop request delivered again: a signal to the
 * process group (Ctrl-C in a terminal, a service manager's stop) reaches node directly and relayed by
 * its parents (pnpm, tsx), milliseconds apart. A signal later than this forces the exit.
 */
export const REPEAT_WINDOW_MS = 2_000;

export interface ShutdownOptions {
  /** Default REPEAT_WINDOW_MS. */
  repeatWindowMs?: number;
  /** Default `process.exit`; tests pass their own. */
  exit?: (code: number) => void;
  /** Milliseconds on a monotonic clock (default `performance.now`). */
  now?: () => number;
}

type Log = (msg: string, err?: unknown) => void;

/**
 * The signal handler: the first signal runs `stop` once and exits 0 when it succeeded (1 when it
 * threw); a repeat within the window is logged and ignored; one after it exits 1 at once.
 */
export function shutdownHandler(
  stop: () => Promise<void>,
  log: Log,
  options: ShutdownOptions = {},
): (signal: NodeJS.Signals) => void {
  const { repeatWindowMs = REPEAT_WINDOW_MS, exit = process.exit, now = () => performance.now() } = options;
  let firstAt: number | undefined;
  return (signal) => {
    if (firstAt === undefined) {
      firstAt = now();
      log(`${signal}: shutting down (another signal after ${repeatWindowMs / 1000} s exits at once)`);
      stop().then(
        () => exit(0),
        (err: unknown) => {
          log('shutdown failed', err);
          exit(1);
        },
      );
    } else if (now() - firstAt < repeatWindowMs) {
      log(`${signal} again: the same stop, already under way`);
    } else {
      log(`${signal} again: exiting at once, without finishing the stop`);
      exit(1);
    }
  };
}

/** Installs `shutdownHandler` for SIGTERM and SIGINT. */
export function onShutdownSignal(stop: () => Promise<void>, log: Log, options: ShutdownOptions = {}): void {
  const handler = shutdownHandler(stop, log, options);
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}
