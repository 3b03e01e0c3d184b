/**
 * Authentication by the session cookie of a password sign-in: the principal is the person, with the
 * person's own roles (never with `svc-run-as`). An unsafe request made with the cookie must come from
 * this site (a CSRF defence by Fetch Metadata and Origin).
 *
 * A session this gateway's read model does not hold (started through another gateway a moment ago,
 * before the bus brought it; or older than what the bus still keeps for a new gateway) is asked of
 * identity by the id its token names, and taken in when identity has it live.
 */
import { createHash } from 'node:crypto';
import { internalSessionRoute, type LiveSession, sessionIdOfToken } from '@docflow/contracts';
import type { Logger } from '@docflow/kit';
import {
  internalClient,
  type Principal,
  ProblemError,
  principalOf,
  problems,
  type ServiceClient,
} from '@docflow/kit/http';
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

/** Who asks identity about a sign-in or a session: nobody is authenticated yet, so the gateway itself. */
export const GATEWAY_PRINCIPAL: Principal = { account: 'gateway', subject: 'gateway', roles: [] };

export type SessionLookUp = (
  sessionId: string,
  ids: { requestId: string; correlationId: string },
) => Promise<LiveSession | undefined>;

/** Identity's answer about a session: undefined when it names no live session. */
export function sessionFromIdentity(identity: ServiceClient, internalToken: string): SessionLookUp {
  const client = internalClient(identity, internalToken);
  return async (sessionId, ids) => {
    try {
      return await client.call(
        internalSessionRoute,
        { params: { sessionId } },
        { principal: GATEWAY_PRINCIPAL, ids },
      );
    } catch (err) {
      if (err instanceof ProblemError && err.status === 404) return undefined;
      throw err;
    }
  };
}

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

export interface SessionAuthDeps {
  sessions: SessionsReadModel;
  accounts: AccountsReadModel;
  options: SessionOptions;
  brake: AuthFailureBrake;
  runAsHeader: string;
  lookUp: SessionLookUp;
  log: Logger;
}

export function sessionAuthenticator(deps: SessionAuthDeps): SessionAuthenticator {
  const { sessions, accounts, options, brake, runAsHeader } = deps;
  const touchEveryMs = Math.min(TOUCH_EVERY_MS, options.idleMs / 4);
  const token = (c: Context) => getCookie(c, options.cookieName) || undefined;
  const usable = (session: SessionRecord | undefined) =>
    session && sessionLive(session, Date.now(), options) ? session : undefined;
  const live = (value: string) => usable(sessions.byTokenHash(hashSessionToken(value)));

  /**
   * The session of a token the read model does not hold, when it names a session the read model does
   * not know: identity's live session, taken in when the token is its own. Undefined when there is no
   * such session, `unavailable` when identity could not be asked.
   */
  async function newSession(c: Context, value: string): Promise<SessionRecord | undefined | 'unavailable'> {
    const id = sessionIdOfToken(value);
    if (id === undefined || sessions.byId(id)) return undefined;
    let atIdentity: LiveSession | undefined;
    try {
      atIdentity = await deps.lookUp(id, {
        requestId: c.get('requestId'),
        correlationId: c.get('correlationId'),
      });
    } catch (err) {
      deps.log.warn({ err }, 'could not ask identity about a session');
      return 'unavailable';
    }
    const hash = hashSessionToken(value);
    if (atIdentity?.tokenHash !== hash) return undefined;
    sessions.remember(id, atIdentity);
    return usable(sessions.byTokenHash(hash));
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
      const session: SessionRecord | undefined | 'unavailable' = live(value) ?? (await newSession(c, value));
      if (session === 'unavailable') {
        await brake.failed(c);
        throw problems.unavailable('the session cannot be checked now; retry shortly');
      }
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
