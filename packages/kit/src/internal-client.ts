/**
 * The one client of the services' internal APIs: a call is built from the route object in contracts
 * (path, query, JSON or streamed body) and sent by `callService` (the internal token, the principal,
 * the ids and the trace context; the transport's timeouts); a problem answer is thrown as the target
 * gave it, and a JSON answer is parsed with the route's output schema.
 */
import { type InternalRoute, pathOf } from '@docflow/contracts';
import type { z } from 'zod';
import type { Principal } from './principal';
import { problemFromResponse } from './problem';
import { callService, type ServiceClient } from './service-client';

/** Whom a call is made for: their principal and the request's ids go with it. */
export interface CallContext {
  principal: Principal;
  ids: { requestId: string; correlationId: string };
}

/** What a call of `R` takes: its path parameters, query, body and any extra headers. */
export type CallInput<R extends InternalRoute> = (R extends { params: infer P extends z.ZodType }
  ? { params: z.input<P> }
  : unknown) &
  (R extends { query: infer Q extends z.ZodType } ? { query?: z.input<Q> } : unknown) &
  (R extends { body: infer B }
    ? B extends z.ZodType
      ? { body: z.input<B> }
      : { body: ReadableStream<Uint8Array> }
    : unknown) & { headers?: Record<string, string> };

/** What a successful call of `R` gives: the parsed body, the answer itself for bytes, or nothing. */
export type CallOutput<R extends InternalRoute> = R['output'] extends z.ZodType
  ? z.output<R['output']>
  : R['output'] extends 'raw'
    ? Response
    : undefined;

export interface InternalClient {
  /** The answer as it comes, whatever its status (for a caller that reads the status itself). */
  send<R extends InternalRoute>(route: R, input: CallInput<R>, ctx: CallContext): Promise<Response>;
  /** The answer's body by the route's output; a problem answer is thrown as the target gave it. */
  call<R extends InternalRoute>(route: R, input: CallInput<R>, ctx: CallContext): Promise<CallOutput<R>>;
}

interface AnyInput {
  params?: Record<string, string>;
  query?: Record<string, string | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
}

/** The internal API of the service `target` reaches, called with `internalToken`. */
export function internalClient(target: ServiceClient, internalToken: string): InternalClient {
  const send = <R extends InternalRoute>(route: R, input: CallInput<R>, ctx: CallContext) => {
    const { params, query, body, headers } = input as AnyInput;
    return callService(target, {
      method: route.method.toUpperCase(),
      path: pathOf(route, params, query),
      body,
      headers,
      internalToken,
      ...ctx,
    });
  };
  return {
    send,
    async call(route, input, ctx) {
      const res = await send(route, input, ctx);
      if (!res.ok) throw await problemFromResponse(res);
      const { output } = route;
      if (output === 'raw') return res as CallOutput<typeof route>;
      if (output === 'empty') {
        await res.body?.cancel();
        return undefined as CallOutput<typeof route>;
      }
      return output.parse(await res.json()) as CallOutput<typeof route>;
    },
  };
}

/** An internal client bound to the one caller a request acts for. */
export interface CallerClient {
  send<R extends InternalRoute>(route: R, input: CallInput<R>): Promise<Response>;
  call<R extends InternalRoute>(route: R, input: CallInput<R>): Promise<CallOutput<R>>;
}

export function forCaller(client: InternalClient, ctx: CallContext): CallerClient {
  return {
    send: (route, input) => client.send(route, input, ctx),
    call: (route, input) => client.call(route, input, ctx),
  };
}
