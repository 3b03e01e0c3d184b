/**
 * Authentication by the session cookie of a password sign-in: the principal is the person, with the
 * person's own roles (never with `svc-run-as`). An unsafe request made with the cookie must come from
 * this site (a CSRF defence by Fetch Metadata and Origin).
 */
import { createHash } from 'node:crypto';
import { type Principal, principalOf, problems } from '@docflow/kit/http';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AccountsReadModel } from './accounts-read-model';
import type { AuthFailureBrake } from './auth-failures';
import type { SessionOptions } from './config';
import type { SessionRecord, SessionsReadModel } from './sessions-read-model';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** What `Sec-Fetch-Site` may say of a request this site's own pages (or the user, typing) made. */
const OWN_SITE = new Set(['same-origin', 'none']);
/** How often at most a session's last use is written down (also bounded by a quarter of the idle time). */
const TOUCH_EVERY_MS = 60_000;

export const hashSessionToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** 403 unless the request came from this site (when the browser says where it came from at all). */
export function refuseCrossSite(c: Context): void {
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined && !OWN_SITE.has(site))
    throw problems.forbidden(`a cross-site request (Sec-Fetch-Site: ${site}) cannot use the session`);
  const origin = c.req.header('origin');
  if (origin === undefined) return;
  let host: string | undefined;
  try {
    host = new URL(origin).host;
  } catch {
    host = undefined;
  }
  // Behind a proxy that rewrites Host, the host the browser saw is X-Forwarded-Host (a header no page
  // can set on a cross-site request without a CORS preflight the gateway would refuse).
  const forwarded = c.req.header('x-forwarded-host')?.split(',')[0]?.trim();
  if (host === undefined || (host !== c.req.header('host') && host !== forwarded))
    throw problems.forbidden('a request from another origin cannot use the session');
}

/** Whether a session is still live at `now` (ms): before its absolute and its idle time-out. */
export function sessionLive(session: SessionRecord, now: number, options: SessionOptions): boolean {
  return now < Date.parse(session.expires) && now - session.lastUsed < options.idleMs;
}

export interface SessionAuthenticator {
  /** The session token of the request's cookie, if it carries one. */
  token(c: Context): string | undefined;
  /** The live session of the request's cookie, if any. */
  current(c: Context): SessionRecord | undefined;
  /** The principal of a request made with `token`: 401 when it names no live session of an active person. */
  principal(c: Context, token: string): Promise<Principal>;
}

export function sessionAuthenticator(
  sessions: SessionsReadModel,
  accounts: AccountsReadModel,
  options: SessionOptions,
  brake: AuthFailureBrake,
  runAsHeader: string,
): SessionAuthenticator {
  const touchEveryMs = Math.min(TOUCH_EVERY_MS, options.idleMs / 4);
  const token = (c: Context) => getCookie(c, options.cookieName) || undefined;
  function live(value: string) {
    const session = sessions.byTokenHash(hashSessionToken(value));
    return session && sessionLive(session, Date.now(), options) ? session : undefined;
  }
  return {
    token,
    current(c) {
      const value = token(c);
      return value === undefined ? undefined : live(value);
    },
    async principal(c, value) {
      if (c.req.header(runAsHeader) !== undefined)
        throw problems.badRequest(
          `${runAsHeader} is for service accounts: a session acts as its person only`,
        );
      if (UNSAFE_METHODS.has(c.req.method)) refuseCrossSite(c);
      const session = live(value);
      const person = session && accounts.byId(session.accountId);
      if (!session || person?.kind !== 'person' || !person.active) {
        await brake.failed(c);
        throw problems.unauthorized('the session has ended or is unknown: sign in again', 'Cookie');
      }
      const now = Date.now();
      if (now - session.lastUsed >= touchEveryMs) sessions.touch(session.id, now);
      return principalOf(person);
    },
  };
}
