/**
 * A service answers an internal route from its route object in contracts: the path parameters, query
 * and JSON body are parsed with the route's schemas (400 with a pointer per invalid value), and the
 * handler's answer is sent as the route says (JSON with its status, 204, or the handler's own Response).
 */
import { type InternalRoute, routerPath } from '@docflow/contracts';
import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import type { ServiceEnv } from './service-app';
import { parseWith, readJson } from './validation';

/** What the handler of `R` receives, parsed: a streamed body is read from `c.req.raw.body`. */
export type HandlerInput<R extends InternalRoute> = (R extends { params: infer P extends z.ZodType }
  ? { params: z.output<P> }
  : unknown) &
  (R extends { query: infer Q extends z.ZodType } ? { query: z.output<Q> } : unknown) &
  (R extends { body: infer B extends z.ZodType } ? { body: z.output<B> } : unknown);

/** What the handler of `R` answers: the JSON body, its own Response for bytes, or nothing for 204. */
export type HandlerAnswer<R extends InternalRoute> = R['output'] extends z.ZodType
  ? z.input<R['output']>
  : R['output'] extends 'raw'
    ? Response
    : unknown; // 204: whatever the handler returns is not sent

export function serveInternal<R extends InternalRoute>(
  app: Hono<ServiceEnv>,
  route: R,
  handler: (c: Context<ServiceEnv>, input: HandlerInput<R>) => HandlerAnswer<R> | Promise<HandlerAnswer<R>>,
): void {
  app.on(route.method.toUpperCase(), routerPath(route), async (c) => {
    const input: Record<string, unknown> = {};
    if (route.params) input.params = parseWith('path', route.params, c.req.param());
    if (route.query) input.query = parseWith('query', route.query, c.req.query());
    if (route.body && route.body !== 'raw') input.body = await readJson(c, route.body);
    const answer = await handler(c, input as HandlerInput<R>);
    if (route.output === 'raw') return answer as Response;
    if (route.output === 'empty') return c.body(null, 204);
    return c.json(answer as object, route.status ?? 200);
  });
}
