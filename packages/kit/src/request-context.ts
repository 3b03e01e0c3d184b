/** Request and correlation ids, a per-request child logger and one access-log line per request. */
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from './logger';

export const REQUEST_ID_HEADER = 'x-request-id';
export const CORRELATION_ID_HEADER = 'x-correlation-id';

export type RequestVariables = { requestId: string; correlationId: string; log: Logger };

/**
 * `info` where a request enters docflow; `debug` for a service called in-process by the gateway in
 * embedded mode, where the gateway's line (same request id) already records the request.
 */
export type AccessLogLevel = 'info' | 'debug';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function setIds(res: Response, requestId: string, correlationId: string): void {
  res.headers.set(REQUEST_ID_HEADER, requestId);
  res.headers.set(CORRELATION_ID_HEADER, correlationId);
}

/**
 * Takes ids from the incoming headers when they look sane (a gateway hop keeps them), else makes new ones,
 * and echoes both on the response.
 */
export function requestContext(
  logger: Logger,
  accessLogLevel: AccessLogLevel = 'info',
): MiddlewareHandler<{ Variables: RequestVariables }> {
  return async function requestContextMiddleware(c, next) {
    const incoming = c.req.header(REQUEST_ID_HEADER);
    const requestId = incoming && SAFE_ID.test(incoming) ? incoming : randomUUID();
    const incomingCorrelation = c.req.header(CORRELATION_ID_HEADER);
    const correlationId =
      incomingCorrelation && SAFE_ID.test(incomingCorrelation) ? incomingCorrelation : requestId;
    const log = logger.child({ requestId, correlationId });
    c.set('requestId', requestId);
    c.set('correlationId', correlationId);
    c.set('log', log);
    const started = performance.now();
    await next();
    // On the response's own headers: `c.header()` after the handler would copy the response, turning
    // @hono/node-server's lightweight response into a full web Response with a streamed body.
    try {
      setIds(c.res, requestId, correlationId);
    } catch {
      // Immutable headers (a fetch() answer, Response.redirect): a copy of the response takes them.
      c.res = new Response(c.res.body, c.res);
      setIds(c.res, requestId, correlationId);
    }
    if (!log.isLevelEnabled(accessLogLevel)) return;
    const ms = Math.round((performance.now() - started) * 10) / 10;
    log[accessLogLevel]({ method: c.req.method, path: c.req.path, status: c.res.status, ms }, 'request');
  };
}
