/**
 * Security headers of the gateway's web pages and their files (`/docs`, `/console`), by Hono's
 * secureHeaders: the page's Content-Security-Policy, never framed (`frame-ancestors 'none'` and
 * `X-Frame-Options: DENY`), `nosniff`, no referrer to another site, and the cross-origin isolation headers.
 */
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/** Directives as secureHeaders takes them: `{ defaultSrc: ["'none'"], scriptSrc: ["'self'"], … }`. */
export type ContentSecurityPolicy = NonNullable<
  NonNullable<Parameters<typeof secureHeaders>[0]>['contentSecurityPolicy']
>;

/**
 * The headers for pages under `path` (the page and everything below it). `sameOriginReferrer` for a
 * page whose forms post to its own site: under `no-referrer` the browser sends such a post with
 * `Origin: null`, which the session's CSRF check refuses; `same-origin` still sends nothing elsewhere.
 * @example app.use('/docs/*', pageSecurityHeaders(DOCS_CSP));
 */
export function pageSecurityHeaders(
  csp: ContentSecurityPolicy,
  { sameOriginReferrer = false } = {},
): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: { ...csp, frameAncestors: ["'none'"] },
    xFrameOptions: 'DENY',
    referrerPolicy: sameOriginReferrer ? 'same-origin' : 'no-referrer',
    // The gateway serves plain HTTP behind whatever terminates TLS; HSTS is that proxy's to send.
    strictTransportSecurity: false,
  });
}
