/**
 * The skeleton every service app shares: problem+json errors, request ids and logs, `/healthz` and
 * `/readyz`, and the internal-token guard in front of its API paths.
 */
import { Hono } from 'hono';
import { healthRoutes, type ReadinessCheck } from './health';
import type { Logger } from './logger';
import { trustGatewayPrincipal } from './principal';
import { handleError, handleNotFound } from './problem';
import { requestContext } from './request-context';

export interface ServiceAppOptions {
  log: Logger;
  internalToken: string;
  /** What `/readyz` checks: every engine the service needs. */
  readiness: Record<string, ReadinessCheck>;
  /** Paths reached only with the internal token (default `/api/*`). */
  guarded?: string[];
}

/** @example const app = createServiceApp({ log, internalToken, readiness: { eventStore: () => store.ping() } }); */
export function createServiceApp(options: ServiceAppOptions): Hono {
  const app = new Hono();
  app.onError(handleError);
  app.notFound(handleNotFound);
  app.use(requestContext(options.log));
  app.route('/', healthRoutes(options.readiness));
  for (const path of options.guarded ?? ['/api/*'])
    app.use(path, trustGatewayPrincipal(options.internalToken));
  return app;
}
