/** A distributed service's `main.ts` in a few lines: the runner opens its engines and closes them. */
import type { z } from 'zod';
import { type DistributedEnv, openServiceEngines, type ServiceEngines } from './engines';
import type { Logger } from './logger';
import { runService } from './main-runner';

/** What a service's factory builds: its HTTP app and its lifecycle; the engines are not its to close. */
export interface ServiceParts {
  app: { fetch(request: Request, env?: unknown): Response | Promise<Response> };
  /** Connects and starts consumers (retried by the runner until it succeeds). */
  start(): Promise<unknown>;
  /** Stops the service's own work; the runner closes the engines after it. */
  stop(): Promise<void>;
}

/**
 * `runService` for a service on the event store, Kafka bus and local database of `name`: they are
 * opened before `build` and closed (bus, store, database) after the service stopped.
 *
 * @example
 * await runDistributedService('workflow', WorkflowEnv, (config, log, engines) =>
 *   createWorkflowService({ ...engines, log, namespace: config.DOCFLOW_NAMESPACE, ... }));
 */
export function runDistributedService<S extends z.ZodType<DistributedEnv>>(
  name: string,
  schema: S,
  build: (config: z.infer<S>, log: Logger, engines: ServiceEngines) => ServiceParts,
): Promise<void> {
  return runService(name, schema, async (config, log) => {
    const engines = openServiceEngines(name, config);
    const service = build(config, log, engines);
    return {
      fetch: service.app.fetch,
      start: async () => {
        await service.start();
      },
      async stop() {
        await service.stop();
        await engines.close();
      },
    };
  });
}
