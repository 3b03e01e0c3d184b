/** Forwards a validated request to the service that owns it, with the principal and the ids. */
import { callService, type ServiceClient, type ServiceEnv } from '@docflow/kit/http';
import type { Context } from 'hono';

export type GatewayContext = Context<ServiceEnv>;

export interface ForwardOptions {
  /** A validated JSON body, or the raw body stream (sent on unparsed, with its content type). */
  body?: unknown;
  headers?: Record<string, string>;
}

export function forward(
  c: GatewayContext,
  client: ServiceClient,
  internalToken: string,
  options: ForwardOptions = {},
) {
  // Path and query as they came (still percent-encoded), cut from the URL @hono/node-server already
  // validated and normalised, instead of parsing it again.
  const url = c.req.url;
  return callService(client, {
    method: c.req.method,
    path: url.slice(url.indexOf('/', url.indexOf('//') + 2)),
    internalToken,
    // c.get: `c.var` builds a new object of every variable on each access.
    principal: c.get('principal'),
    ids: { requestId: c.get('requestId'), correlationId: c.get('correlationId') },
    headers: { accept: 'application/json', ...options.headers },
    body: options.body,
  });
}
