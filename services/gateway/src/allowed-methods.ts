/**
 * Which methods a path has, from the app's own routes: a known path asked with another method is
 * 405 with `Allow` (not 404), and OPTIONS is answered with `Allow` without credentials.
 */
import { handleError, handleNotFound, problems } from '@docflow/kit/http';
import type { Context, Hono, MiddlewareHandler } from 'hono';

interface RoutePattern {
  method: string;
  pattern: RegExp;
}

/** A Hono route path (`/api/v2/docForm/:id`, `/api/*`) as an anchored regular expression. */
function toPattern(path: string): RegExp {
  const segments = path.split('/').map((segment) => {
    if (segment === '*') return '.*';
    if (segment.startsWith(':')) return '[^/]+';
    return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return new RegExp(`^${segments.join('/')}/?$`);
}

export interface AllowedMethods {
  /** The methods the app answers on `path` (HEAD wherever GET is); empty for an unknown path. */
  of(path: string): string[];
  /** `app.notFound`: 405 with `Allow` for a known path, else 404. */
  notFound(c: Context): Response;
  /** Answers OPTIONS with 204 and `Allow` (404 for an unknown path); other methods pass. */
  options: MiddlewareHandler;
}

/**
 * Reads the routes when first asked, so every route registered by then counts.
 * @example const allowed = allowedMethods(app); app.notFound(allowed.notFound);
 */
export function allowedMethods(app: Pick<Hono, 'routes'>): AllowedMethods {
  let routes: RoutePattern[] | undefined;
  const table = () =>
    (routes ??= app.routes
      .filter((r) => r.method !== 'ALL')
      .map((r) => ({ method: r.method.toUpperCase(), pattern: toPattern(r.path) })));

  const of = (path: string) => {
    const methods = new Set(
      table()
        .filter((r) => r.pattern.test(path))
        .map((r) => r.method),
    );
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  };

  return {
    of,
    notFound(c) {
      const allow = of(c.req.path);
      if (!allow.length) return handleNotFound(c);
      return handleError(
        problems.methodNotAllowed(`${c.req.method} is not allowed on ${c.req.path}`, allow),
        c,
      );
    },
    async options(c, next) {
      if (c.req.method !== 'OPTIONS') return next();
      const allow = of(c.req.path);
      if (!allow.length) return handleNotFound(c);
      return c.body(null, 204, { allow: [...allow, 'OPTIONS'].join(', ') });
    },
  };
}
