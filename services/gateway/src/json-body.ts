/**
 * JSON request bodies at the edge: bounded before they are read past the bound (413), and decoded
 * strictly (invalid UTF-8 is 400, not silently replaced), before any validator reads them.
 */
import { decodeUtf8, problems } from '@docflow/kit/http';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * @param maxBytesFor the bound of a request path's body; undefined: not a JSON route, left alone
 * @example app.use('/api/*', jsonBody((path) => (path.startsWith('/api/admin/') ? 64 * 1024 : 1024 ** 2)));
 */
export function jsonBody(maxBytesFor: (path: string) => number | undefined): MiddlewareHandler {
  return function jsonBodyMiddleware(c, next) {
    if (!BODY_METHODS.has(c.req.method)) return next();
    const maxSize = maxBytesFor(c.req.path);
    if (maxSize === undefined || !c.req.raw.body) return next();
    const limit = bodyLimit({
      maxSize,
      onError: () => {
        throw problems.tooLarge(`the body may hold at most ${maxSize} bytes`);
      },
    });
    return limit(c, async () => {
      const text = decodeUtf8(await c.req.arrayBuffer());
      // The validator reads `c.req.text()`, which Hono answers from this cache: the body is decoded once.
      // (Hono caches the promise at run time; its type declares the cache as the methods themselves.)
      (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(text);
      await next();
    });
  };
}
