/** Forwards a validated request to the service that owns it, with the principal and the ids. */
import {
  CORRELATION_ID_HEADER,
  encodePrincipal,
  INTERNAL_TOKEN_HEADER,
  PRINCIPAL_HEADER,
  type PrincipalVariables,
  REQUEST_ID_HEADER,
  type RequestVariables,
  type ServiceClient,
} from '@docflow/kit';
import type { Context } from 'hono';

type GatewayContext = Context<{ Variables: RequestVariables & PrincipalVariables }>;

export function forward(c: GatewayContext, client: ServiceClient, internalToken: string, body?: unknown) {
  const headers = new Headers({
    [INTERNAL_TOKEN_HEADER]: internalToken,
    [PRINCIPAL_HEADER]: encodePrincipal(c.var.principal),
    [REQUEST_ID_HEADER]: c.var.requestId,
    [CORRELATION_ID_HEADER]: c.var.correlationId,
    accept: 'application/json',
  });
  if (body !== undefined) headers.set('content-type', 'application/json');
  return client.fetch(
    new Request(c.req.url, {
      method: c.req.method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }),
  );
}
