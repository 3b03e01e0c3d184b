/** Request and correlation ids, a per-request child logger and one access-log line per request. */
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from './logger';

export const REQUEST_ID_HEADER = 'x-request-id';
export const CORRELATION_ID_HEADER = 'x-correlation-id';

export type RequestVariables = { requestId: string; correlationId: string; log: Logger };

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Takes ids from the incoming headers when they look sane (a gateway hop keeps them), else makes new ones,
 * and echoes both on the response.
 */
export function requestContext(logger: Logger): MiddlewareHandler<{ Variables: RequestVariables }> {
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
    c.header(REQUEST_ID_HEADER, requestId);
    c.header(CORRELATION_ID_HEADER, correlationId);
    const ms = Math.round((performance.now() - started) * 10) / 10;
    log.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms }, 'request');
  };
}
