/**
 * How the gateway (or a service) calls another service: one interface, called in-process in
 * embedded mode and over HTTP in distributed mode.
 */
import { encodePrincipal, INTERNAL_TOKEN_HEADER, PRINCIPAL_HEADER, type Principal } from './principal';
import { problems } from './problem';
import { CORRELATION_ID_HEADER, REQUEST_ID_HEADER } from './request-context';

export interface ServiceClient {
  fetch(request: Request): Promise<Response>;
}

type FetchHandler = (request: Request) => Response | Promise<Response>;

/** Embedded mode: the service app's own `fetch`, no network. */
export function inProcessClient(fetchHandler: FetchHandler): ServiceClient {
  return { fetch: async (request) => fetchHandler(request) };
}

/**
 * Distributed mode: the same request sent to the service's base URL; a refused connection is a 503.
 * `headersTimeoutMs` bounds the wait for the answer's headers; a streamed upload is exempt (its answer
 * comes only once the whole body is sent) and a body, once it flows, is never cut off.
 */
export function httpClient(baseUrl: string, headersTimeoutMs = 30_000): ServiceClient {
  const base = new URL(baseUrl);
  return {
    async fetch(request) {
      const incoming = new URL(request.url);
      const target = new URL(incoming.pathname + incoming.search, base);
      const abort = new AbortController();
      const timer = request.body ? undefined : setTimeout(() => abort.abort(), headersTimeoutMs);
      try {
        return await fetch(new Request(target, request), {
          signal: abort.signal,
          ...(request.body ? { duplex: 'half' } : {}),
        } as RequestInit);
      } catch {
        throw problems.unavailable(`service at ${base.host} did not answer`);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

export interface InternalCall {
  method: string;
  /** Path and query on the target service. */
  path: string;
  internalToken: string;
  principal: Principal;
  ids: { requestId: string; correlationId: string };
  headers?: Record<string, string>;
  /** A JSON value, or a stream sent as it arrives (never buffered). */
  body?: unknown;
}

/** A request from one service to another, carrying the internal token, the principal and the ids. */
export function callService(client: ServiceClient, call: InternalCall): Promise<Response> {
  const headers = new Headers({
    [INTERNAL_TOKEN_HEADER]: call.internalToken,
    [PRINCIPAL_HEADER]: encodePrincipal(call.principal),
    [REQUEST_ID_HEADER]: call.ids.requestId,
    [CORRELATION_ID_HEADER]: call.ids.correlationId,
    ...call.headers,
  });
  let body: ReadableStream | string | undefined;
  if (call.body instanceof ReadableStream) body = call.body;
  else if (call.body !== undefined) {
    body = JSON.stringify(call.body);
    headers.set('content-type', 'application/json');
  }
  return client.fetch(
    new Request(`http://service${call.path}`, {
      method: call.method,
      headers,
      body,
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit),
  );
}
