/**
 * The shape of a route of a service's internal API (reached only with the internal token): its method,
 * path, the zod schemas of what it takes and answers, and the problems it may answer. One object serves
 * both sides: kit's internal client builds the call from it, and the service registers its handler from
 * it, so a renamed path or a changed body fails at compile time on both sides.
 */
import type { z } from 'zod';
import type { problemResponses } from './responses';

/** A body or an answer sent as bytes, not as JSON (a file upload or download). */
export type RawBody = 'raw';
/** An answer without a body (204). */
export type EmptyAnswer = 'empty';

export interface InternalRoute {
  method: 'get' | 'post' | 'delete';
  /** With `{name}` placeholders for `params`. */
  path: `/internal/${string}`;
  /** An object of strings (the path's placeholders). */
  params?: z.ZodType;
  /** An object of strings (the query's parameters). */
  query?: z.ZodType;
  body?: z.ZodType | RawBody;
  output: z.ZodType | RawBody | EmptyAnswer;
  /** The status of a successful answer with a JSON body (200 unless given). */
  status?: 200 | 201;
  /** The problem+json statuses the route may answer with. */
  problems: ReadonlyArray<keyof typeof problemResponses>;
}

/** Every internal route lies under this: what a service guards with the internal token. */
export const INTERNAL_PATHS = '/internal/*';

/** Declares one internal route, keeping its literal types for the client and the handler. */
export const internalRoute = <const R extends InternalRoute>(route: R): R => route;

/** The path the router matches: `{name}` placeholders become `:name`. */
export const routerPath = (route: InternalRoute): string => route.path.replace(/\{(\w+)\}/g, ':$1');

/** The path and query of one call: placeholders filled in (encoded), the query appended. */
export function pathOf(
  route: InternalRoute,
  params: Record<string, string> = {},
  query: Record<string, string | undefined> = {},
): string {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route.path}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams(
    Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined),
  ).toString();
  return search ? `${path}?${search}` : path;
}
