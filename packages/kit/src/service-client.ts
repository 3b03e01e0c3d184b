/**
 * How the gateway (or a service) calls another service: one interface, called in-process in
 * embedded mode and over HTTP in distributed mode.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { SpanKind } from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_URL_PATH,
} from '@opentelemetry/semantic-conventions';
import { type CallBody, InProcessRequest } from './in-process-request';
import {
  encodePrincipal,
  IN_PROCESS_CALLER,
  INTERNAL_TOKEN_HEADER,
  type InProcessCaller,
  type InProcessEnv,
  PRINCIPAL_HEADER,
  type Principal,
} from './principal';
import { problems } from './problem';
import { CORRELATION_ID_HEADER, REQUEST_ID_HEADER } from './request-context';
import { toWebStream } from './streams';
import { traceHeaders } from './trace-context';
import { inSpan } from './tracing';

/** One call to another service: what both clients take. */
export interface ServiceRequest {
  method: string;
  /** Path and query on the target service. */
  path: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** JSON text (sent as `application/json`), or a stream sent as it arrives (never buffered). */
  body?: CallBody;
  /** The internal token and the principal, which the target trusts only together. */
  caller?: InProcessCaller;
}

export interface ServiceClient {
  send(request: ServiceRequest): Promise<Response>;
}

type FetchHandler = (request: Request, env: InProcessEnv) => Response | Promise<Response>;

/**
 * Embedded mode: the service app's own `fetch`, no network. The request is a lightweight stand-in
 * (no web `Request` unless the service reads a streamed body), and the caller's token and principal
 * go as the app's environment, not encoded into headers; the same middleware checks them.
 */
export function inProcessClient(fetchHandler: FetchHandler): ServiceClient {
  return {
    send: async (request) => {
      const headers = new Headers(request.headers);
      if (typeof request.body === 'string') headers.set('content-type', 'application/json');
      const raw = new InProcessRequest(
        request.method,
        `http://service${request.path}`,
        headers,
        request.body,
      );
      return fetchHandler(raw as unknown as Request, { [IN_PROCESS_CALLER]: request.caller });
    },
  };
}

/**
 * How long a kept-alive connection may wait idle in the pool before the client closes it: shorter than
 * the services keep one (serve.ts, SERVER_KEEP_ALIVE_MS), so that a request is never sent on a
 * connection the server is closing. (The agent's time-out closes only idle pooled sockets; on a
 * socket in use it is an event nobody listens to.)
 */
const CLIENT_IDLE_MS = 10_000;
const agent = new HttpAgent({ keepAlive: true, timeout: CLIENT_IDLE_MS });

const BODYLESS = new Set([204, 304]);
/** Methods sent again once when a kept-alive connection turns out closed: they change nothing. */
const RESENDABLE = new Set(['GET', 'HEAD']);

/** An answer up to this size, with a Content-Length, is read whole before it is passed on. */
const SMALL_ANSWER_BYTES = 64 * 1024;

function readSmall(res: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    res.once('error', reject);
    res.once('close', () => {
      if (!res.complete) reject(new Error('the answer was cut off'));
    });
  });
}

/**
 * Distributed mode: the same request sent to the service's base URL over node:http (undici's fetch
 * reads a streamed request body faster than the socket drains, holding a large upload in memory),
 * the caller's token and principal in headers; a refused connection is a 503. `headersTimeoutMs`
 * bounds the wait for the answer's headers; a streamed upload is exempt (its answer comes only once
 * the whole body is sent) and a body, once it flows, is never cut off.
 */
export function httpClient(baseUrl: string, headersTimeoutMs = 30_000): ServiceClient {
  const base = new URL(baseUrl);
  return {
    send(request) {
      const headers: Record<string, string> = { ...request.headers };
      if (request.caller) {
        headers[INTERNAL_TOKEN_HEADER] = request.caller.internalToken;
        headers[PRINCIPAL_HEADER] = encodePrincipal(request.caller.principal);
      }
      const body = request.body;
      if (typeof body === 'string') {
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(Buffer.byteLength(body));
      }
      const streamed = body instanceof ReadableStream;
      const send = (retried: boolean) =>
        new Promise<Response>((resolve, reject) => {
          const unavailable = () => reject(problems.unavailable(`service at ${base.host} did not answer`));
          /** False once an answer began or the wait for one timed out: then the request is never resent. */
          let resendable = RESENDABLE.has(request.method) && !streamed && !retried;
          const req = httpRequest(
            {
              protocol: base.protocol,
              hostname: base.hostname,
              port: base.port,
              path: request.path,
              method: request.method,
              headers,
              agent,
            },
            (res) => {
              resendable = false;
              clearTimeout(timer);
              const answer = new Headers();
              for (const [name, value] of Object.entries(res.headers)) {
                if (Array.isArray(value)) for (const v of value) answer.append(name, v);
                else if (value !== undefined) answer.set(name, value);
              }
              const status = res.statusCode ?? 502;
              if (BODYLESS.has(status) || request.method === 'HEAD') {
                res.resume();
                resolve(new Response(null, { status, headers: answer }));
                return;
              }
              // A small answer of known length (a document, a problem) is read whole: a Response over
              // bytes is written out by @hono/node-server directly, one over a stream chunk by chunk.
              const length = Number(res.headers['content-length'] ?? Number.NaN);
              if (length <= SMALL_ANSWER_BYTES) {
                readSmall(res).then(
                  (bytes) => resolve(new Response(bytes, { status, headers: answer })),
                  () => unavailable(),
                );
                return;
              }
              resolve(new Response(toWebStream(res), { status, headers: answer }));
            },
          );
          req.on('error', () => {
            // Ended: the wait for headers must not keep the process alive (a refused connection).
            clearTimeout(timer);
            // A kept-alive socket the service closed as this request went out (it ends a connection
            // after an upload it refused early): a request that changes nothing is sent once more.
            if (req.reusedSocket && resendable) send(true).then(resolve, reject);
            else unavailable();
          });
          const timer = streamed
            ? undefined
            : setTimeout(() => {
                resendable = false;
                req.destroy();
              }, headersTimeoutMs);
          if (streamed) {
            const source = Readable.fromWeb(body as NodeReadableStream<Uint8Array>);
            source.on('error', (err) => req.destroy(err));
            source.pipe(req);
          } else req.end(body);
        });
      return send(false);
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
    [ATTR_URL_PATH]: pathOnly(call.path),
  };
  return inSpan(call.method, { kind: SpanKind.CLIENT, attributes }, async (span) => {
    const res = await client.send(serviceRequest(call));
    span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, res.status);
    return res;
  });
}

function pathOnly(path: string): string {
  const query = path.indexOf('?');
  return query < 0 ? path : path.slice(0, query);
}

function serviceRequest(call: InternalCall): ServiceRequest {
  const headers: Record<string, string> = {
    [REQUEST_ID_HEADER]: call.ids.requestId,
    [CORRELATION_ID_HEADER]: call.ids.correlationId,
    ...traceHeaders(),
    ...call.headers,
  };
  const body =
    call.body instanceof ReadableStream || call.body === undefined ? call.body : JSON.stringify(call.body);
  return {
    method: call.method,
    path: call.path,
    headers,
    body,
    caller: { internalToken: call.internalToken, principal: call.principal },
  };
}

/** A readiness check that asks another service's `/readyz`. */
export function serviceReadiness(client: ServiceClient): () => Promise<void> {
  return async () => {
    const res = await client.send({ method: 'GET', path: '/readyz', headers: {} });
    await res.body?.cancel();
    if (!res.ok) throw new Error(`answered ${res.status}`);
  };
}
