/**
 * How the gateway (or a service) calls another service: one interface, called in-process in
 * embedded mode and over HTTP in distributed mode.
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { SpanKind } from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_URL_PATH,
} from '@opentelemetry/semantic-conventions';
import { encodePrincipal, INTERNAL_TOKEN_HEADER, PRINCIPAL_HEADER, type Principal } from './principal';
import { problems } from './problem';
import { CORRELATION_ID_HEADER, REQUEST_ID_HEADER } from './request-context';
import { toWebStream } from './streams';
import { traceHeaders } from './trace-context';
import { inSpan } from './tracing';

export interface ServiceClient {
  fetch(request: Request): Promise<Response>;
}

type FetchHandler = (request: Request) => Response | Promise<Response>;

/** Embedded mode: the service app's own `fetch`, no network. */
export function inProcessClient(fetchHandler: FetchHandler): ServiceClient {
  return { fetch: async (request) => fetchHandler(request) };
}

const agent = new HttpAgent({ keepAlive: true });

const BODYLESS = new Set([204, 304]);

/**
 * Distributed mode: the same request sent to the service's base URL over node:http (undici's fetch
 * reads a streamed request body faster than the socket drains, holding a large upload in memory);
 * a refused connection is a 503. `headersTimeoutMs` bounds the wait for the answer's headers; a
 * streamed upload is exempt (its answer comes only once the whole body is sent) and a body, once it
 * flows, is never cut off.
 */
export function httpClient(baseUrl: string, headersTimeoutMs = 30_000): ServiceClient {
  const base = new URL(baseUrl);
  return {
    fetch(request) {
      const incoming = new URL(request.url);
      const target = new URL(incoming.pathname + incoming.search, base);
      return new Promise<Response>((resolve, reject) => {
        const unavailable = () => reject(problems.unavailable(`service at ${base.host} did not answer`));
        const req = httpRequest(
          target,
          { method: request.method, headers: Object.fromEntries(request.headers), agent },
          (res) => {
            clearTimeout(timer);
            const headers = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              if (Array.isArray(value)) for (const v of value) headers.append(name, v);
              else if (value !== undefined) headers.set(name, value);
            }
            const status = res.statusCode ?? 502;
            const body = BODYLESS.has(status) || request.method === 'HEAD' ? null : toWebStream(res);
            if (!body) res.resume();
            resolve(new Response(body, { status, headers }));
          },
        );
        req.on('error', unavailable);
        const timer = request.body ? undefined : setTimeout(() => req.destroy(), headersTimeoutMs);
        if (request.body) {
          const source = Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>);
          source.on('error', (err) => req.destroy(err));
          source.pipe(req);
        } else req.end();
      });
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

/**
 * A request from one service to another, carrying the internal token, the principal, the ids and the
 * trace context, in a client span that ends when the answer's headers arrive.
 */
export function callService(client: ServiceClient, call: InternalCall): Promise<Response> {
  const attributes = {
    [ATTR_HTTP_REQUEST_METHOD]: call.method,
    [ATTR_URL_PATH]: call.path.replace(/\?.*$/, ''),
  };
  return inSpan(call.method, { kind: SpanKind.CLIENT, attributes }, async (span) => {
    const res = await sendCall(client, call);
    span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, res.status);
    return res;
  });
}

function sendCall(client: ServiceClient, call: InternalCall): Promise<Response> {
  const headers = new Headers({
    [INTERNAL_TOKEN_HEADER]: call.internalToken,
    [PRINCIPAL_HEADER]: encodePrincipal(call.principal),
    [REQUEST_ID_HEADER]: call.ids.requestId,
    [CORRELATION_ID_HEADER]: call.ids.correlationId,
    ...traceHeaders(),
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

/** A readiness check that asks another service's `/readyz`. */
export function serviceReadiness(client: ServiceClient): () => Promise<void> {
  return async () => {
    const res = await client.fetch(new Request('http://service/readyz'));
    await res.body?.cancel();
    if (!res.ok) throw new Error(`answered ${res.status}`);
  };
}
