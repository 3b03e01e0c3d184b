/** A server span per request, continuing the trace of an incoming W3C `traceparent`. */
import { context, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_PATH,
} from '@opentelemetry/semantic-conventions';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { skipMiddleware, telemetryOn } from './telemetry';
import { contextFromHeaders } from './trace-context';
import { inSpan, SERVICE_ATTRIBUTE } from './tracing';

/**
 * Put it before `requestContext`, so the request's log lines carry the trace id.
 *
 * @example app.use(httpTracing('document'));
 */
export function httpTracing(service: string): MiddlewareHandler {
  if (!telemetryOn()) return skipMiddleware;
  return function httpTracingMiddleware(c, next) {
    return inSpan(
      c.req.method,
      {
        kind: SpanKind.SERVER,
        parent: contextFromHeaders(c.req.raw.headers, context.active()),
        attributes: {
          [SERVICE_ATTRIBUTE]: service,
          [ATTR_HTTP_REQUEST_METHOD]: c.req.method,
          [ATTR_URL_PATH]: c.req.path,
        },
      },
      async (span) => {
        await next();
        // The route template is known once a handler matched (`*` when none did).
        const route = routePath(c) || '*';
        span.updateName(`${c.req.method} ${route}`);
        span.setAttribute(ATTR_HTTP_ROUTE, route);
        span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, c.res.status);
        if (c.res.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      },
    );
  };
}
