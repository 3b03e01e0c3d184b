/**
 * Security headers of the gateway's web pages and their files (`/docs`, `/console`), by Hono's
 * secureHeaders: the page's Content-Security-Policy, never framed (`frame-ancestors 'none'` and
 * `X-Frame-Options: DENY`), `nosniff`, no referrer, and the cross-origin isolation headers.
 */
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/** Directives as secureHeaders takes them: `{ defaultSrc: ["'none'"], scriptSrc: ["'self'"], … }`. */
export type ContentSecurityPolicy = NonNullable<
  NonNullable<Parameters<typeof secureHeaders>[0]>['contentSecurityPolicy']
>;

/**
 * The headers for pages under `path` (the page and everything below it).
 * @example app.use('/docs/*', pageSecurityHeaders(DOCS_CSP));
 */
export function pageSecurityHeaders(csp: ContentSecurityPolicy): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: { ...csp, frameAncestors: ["'none'"] },
    xFrameOptions: 'DENY',
    referrerPolicy: 'no-referrer',
    // The gateway serves plain HTTP behind whatever terminates TLS; HSTS is that proxy's to send.
    strictTransportSecurity: false,
  });
}
