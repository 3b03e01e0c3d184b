/** The shared shape of every service's `main.ts`: config, log, start, serve, graceful stop. */
import type { z } from 'zod';
import { ConfigError, loadConfig } from './config';
import { makeDataDirPrivate } from './data-dir';
import { createLogger, type Logger } from './logger';
import { onShutdownSignal, startServer } from './serve';
import { startTracing } from './tracing';

export interface RunnableService {
  fetch(request: Request): Response | Promise<Response>;
  /** Stops consuming and publishing after the work in hand; the server is already closed then. */
  stop(): Promise<void>;
}

/**
 * Loads `schema` from the environment (exit 2 with the message on a bad value), makes the data
 * directory its owner's only, builds the service, serves it on PORT and stops it gracefully on
 * SIGTERM/SIGINT.
 */
export async function runService<
  S extends z.ZodType<{
    PORT: number;
    HOST: string;
    LOG_LEVEL: string;
    DOCFLOW_MODE: string;
    DOCFLOW_DATA_DIR: string;
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
  try {
    config = loadConfig(schema);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`${name}: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const tracing = startTracing(name);
  const log = createLogger(name, config.LOG_LEVEL);
  try {
    const dataDir = config.DOCFLOW_DATA_DIR;
    const openMode = makeDataDirPrivate(dataDir);
    if (openMode !== undefined)
      log.warn(
        { dataDir, mode: openMode.toString(8) },
        'the data directory was open to other users: now 0700',
      );
    const service = await build(config, log);
    const server = await startServer(service.fetch, config.PORT, config.HOST);
    log.info({ port: server.port, mode: config.DOCFLOW_MODE }, `${name} listening`);
    onShutdownSignal(
      async () => {
        await server.close();
        await service.stop();
        await tracing.shutdown();
        log.info(`${name} stopped`);
      },
      (msg, err) => (err ? log.error({ err }, msg) : log.info(msg)),
    );
  } catch (err) {
    log.fatal({ err }, `${name} failed to start`);
    process.exit(1);
  }
}
