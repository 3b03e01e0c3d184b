/** The shared shape of every service's `main.ts`: config, log, serve, start, graceful stop. */
import { z } from 'zod';
import { ConfigError, loadConfig } from './config';
import { makeDataDirPrivate } from './data-dir';
import { DataDirInUse } from './data-dir-lock';
import { createLogger, type Logger } from './logger';
import { startServer } from './serve';
import { onShutdownSignal } from './shutdown-signal';
import { createStartGate, startBlocker } from './start-gate';
import { startWithRetry } from './start-retry';
import { setTelemetry } from './telemetry';
import { startTracing } from './tracing';

/** How a process stops, read by every runner next to its service's own variables. */
export const StopEnv = z.object({
  /** How long requests in flight at a stop may take to be answered; the connections still busy then are closed. */
  DOCFLOW_STOP_DRAIN_MS: z.coerce.number().int().min(0).default(8_000),
});

export interface RunnableService {
  fetch(request: Request, env?: unknown): Response | Promise<Response>;
  /**
   * Connects to the engines and starts consumers and relays, retried with back-off until it succeeds
   * (or the process stops): it keeps what an earlier attempt started and redoes only what failed.
   * Without it the service is ready as soon as it is built.
   */
  start?(): Promise<void>;
  /** Stops consuming and publishing after the work in hand; the server is already closed then. */
  stop(): Promise<void>;
}

/**
 * Loads `schema` from the environment (exit 2 with the message on a bad value), makes the data
 * directory its owner's only (exit 2 too when `build` finds it in use by another process), builds the service and serves it on PORT at once, then starts it in the
 * background: until the start succeeded `/readyz` answers 503 `starting` with what it waits for and
 * the API 503, and a failed start is retried with capped back-off (only a ConfigError stops the
 * process), so no start order of services and engines kills a service. Stops gracefully on
 * SIGTERM/SIGINT (shutdown-signal.ts): no new connections, the requests in flight answered within
 * DOCFLOW_STOP_DRAIN_MS, then the service stopped and its stores closed; exit 0.
 */
export async function runService<
  S extends z.ZodType<{
    PORT: number;
    HOST: string;
    LOG_LEVEL: string;
    DOCFLOW_MODE: string;
    DOCFLOW_DATA_DIR: string;
    DOCFLOW_TELEMETRY: 'on' | 'off';
  }>,
>(
  name: string,
  schema: S,
  build: (config: z.infer<S>, log: Logger) => Promise<RunnableService>,
): Promise<void> {
  // Whatever the process creates is its owner's only (0600 files, 0700 directories), also files no
  // adapter sets a mode for: the data holds key and password hashes.
  process.umask(0o077);
  let config: z.infer<S>;
  let stopConfig: z.infer<typeof StopEnv>;
  try {
    config = loadConfig(schema);
    stopConfig = loadConfig(StopEnv);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`${name}: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  setTelemetry(config.DOCFLOW_TELEMETRY);
  const tracing = startTracing(name);
  const log = createLogger(name, config.LOG_LEVEL);
  const stopping = new AbortController();
  const serving = buildAndServe();
  // Installed before anything is built: a signal during start-up stops what was built once it is.
  onShutdownSignal(
    async () => {
      stopping.abort();
      const { service, server } = await serving;
      const drainMs = stopConfig.DOCFLOW_STOP_DRAIN_MS;
      const cut = await server.close(drainMs);
      if (cut > 0)
        log.warn(
          { connections: cut, drainMs },
          `requests still running after ${drainMs} ms: their connections closed`,
        );
      await service.stop();
      await tracing.shutdown();
      log.info(`${name} stopped`);
    },
    (msg, err) => (err ? log.error({ err }, msg) : log.info(msg)),
  );

  async function buildAndServe() {
    const dataDir = config.DOCFLOW_DATA_DIR;
    const openMode = makeDataDirPrivate(dataDir);
    if (openMode !== undefined)
      log.warn(
        { dataDir, mode: openMode.toString(8) },
        'the data directory was open to other users: now 0700',
      );
    const service = await build(config, log);
    const gate = createStartGate();
    // Nothing to start: ready with the first request (the embedded system starts while it is built).
    if (!service.start) gate.open();
    const server = await startServer(gate.guard(service.fetch), config.PORT, config.HOST);
    return { service, gate, server };
  }

  try {
    const { service, gate, server } = await serving;
    log.info({ port: server.port, mode: config.DOCFLOW_MODE }, `${name} listening`);
    const start = service.start?.bind(service) ?? (async () => {});
    startWithRetry(start, {
      signal: stopping.signal,
      onFailure(err, attempt, retryInMs) {
        gate.waiting(err);
        log.warn({ err, attempt, retryInMs }, `${name} not started yet: ${startBlocker(err)}`);
      },
    }).then(
      (started) => {
        if (!started) return;
        gate.open();
        log.info(`${name} ready`);
      },
      (err: unknown) => {
        log.fatal({ err }, `${name} failed to start`);
        process.exit(2);
      },
    );
  } catch (err) {
    // Another process on the data directory: like a configuration error, retrying does not fix it.
    if (err instanceof DataDirInUse) {
      console.error(`${name}: ${err.message}`);
      process.exit(2);
    }
    log.fatal({ err }, `${name} failed to start`);
    process.exit(1);
  }
}
