/**
 * What the floors (get-floor.ts, create-floor.ts) share: the app with kit's own tracing,
 * request-context and metrics middleware, the authentication every request gets, and serving it on
 * loopback with kit's server and shutdown handling.
 */
import { createHash } from 'node:crypto';
import { createLogger, startTracing } from '@docflow/kit';
import {
  handleError,
  handleNotFound,
  httpMetrics,
  httpTracing,
  onShutdownSignal,
  type Principal,
  problems,
  requestContext,
  type ServiceEnv,
  startServer,
} from '@docflow/kit/http';
import { Hono, type MiddlewareHandler } from 'hono';

/** Problem+json errors, a server span (telemetry on), the ids, one access-log line and the request metrics. */
export function floorApp(name: string): Hono<ServiceEnv> {
  startTracing(name);
  const app = new Hono<ServiceEnv>();
  app.onError(handleError);
  app.notFound(handleNotFound);
  app.use(httpTracing(name));
  app.use(requestContext(createLogger(name)));
  app.use(httpMetrics(name));
  return app;
}

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The one admin service account of `apiKey`, found by the SHA-256 of the bearer key and its role
 * checked, as the gateway does it for every request (without the failed-auth brake and `svc-run-as`).
 */
export function floorAuthentication(apiKey: string): MiddlewareHandler<ServiceEnv> {
  const accounts = new Map<string, Principal>([
    [hashOf(apiKey), { account: 'usr-floor', subject: 'usr-floor', roles: ['svcAdminSysRW'] }],
  ]);
  return async (c, next) => {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
    const principal = bearer ? accounts.get(hashOf(bearer[1]!)) : undefined;
    if (!principal) throw problems.unauthorized('unknown API key');
    if (!principal.roles.includes('svcAdminSysRW')) throw problems.forbidden('not an admin');
    c.set('principal', principal);
    await next();
  };
}

/**
 * Serves `app` on a free loopback port and logs it as one JSON line (`listening` fields included);
 * on SIGTERM the server closes, then `close` removes what the floor made.
 */
export async function serveFloor(
  app: Hono<ServiceEnv>,
  listening: Record<string, string>,
  close: () => Promise<void>,
): Promise<void> {
  const server = await startServer(app.fetch, 0, '127.0.0.1');
  console.log(JSON.stringify({ ...listening, port: server.port }));
  onShutdownSignal(
    async () => {
      await server.close();
      await close();
    },
    (msg, err) => console.error(msg, err ?? ''),
  );
}
