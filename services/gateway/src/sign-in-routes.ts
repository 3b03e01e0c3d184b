/**
 * Password sign-in, sign-out and the sessions API at the edge. Identity checks the password and keeps
 * the sessions as events; this gateway's sessions read model (fed by them) answers the listings, and
 * each command waits until the read model shows its effect, so the caller's next request finds it.
 */
import {
  endAccountSessionRoute,
  endSessionRoute,
  internalEndSessionRoute,
  internalSignInRoute,
  listAccountSessionsRoute,
  listSessionsRoute,
  listSignInsRoute,
  type Session,
  SIGN_IN_REFUSED,
  signInRoute,
  signOutRoute,
} from '@docflow/contracts';
import type { Logger } from '@docflow/kit';
import {
  internalClient,
  type Principal,
  ProblemError,
  problems,
  type ServiceClient,
  type ServiceEnv,
} from '@docflow/kit/http';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { deleteCookie } from 'hono/cookie';
import { type AuthFailureBrake, keyedFailureBrake } from './auth-failures';
import type { SessionOptions } from './config';
import { GATEWAY_PRINCIPAL, refuseCrossSite, type SessionAuthenticator, sessionLive } from './session-auth';
import { signInClient as client, requestIds as ids, openSession } from './session-open';
import type { SessionRecord, SessionsReadModel } from './sessions-read-model';

export interface SignInDeps {
  identity: ServiceClient;
  internalToken: string;
  sessions: SessionsReadModel;
  authenticator: SessionAuthenticator;
  options: SessionOptions;
  /** The brake per client address (the one API keys use) and the allowance per e-mail. */
  brake: AuthFailureBrake;
  failuresPerMinute: number;
  waitMs: number;
  log: Logger;
}

const AUDIT_ROLES = ['svcAuditR', 'svcAdminSysRW'] as const;

/** Ends the session of the request's cookie (if any) and clears the cookie. */
export type SignOut = (c: Context<ServiceEnv>) => Promise<void>;

export function signInRoutes(app: OpenAPIHono<ServiceEnv>, deps: SignInDeps): { signOut: SignOut } {
  const { sessions, options } = deps;
  const identity = internalClient(deps.identity, deps.internalToken);
  const emailBrake = keyedFailureBrake(deps.failuresPerMinute, 'this e-mail address');

  const view = (s: SessionRecord, current: string | undefined): Session => ({
    id: s.id,
    started: s.started,
    expires: s.expires,
    lastUsed: new Date(s.lastUsed).toISOString(),
    from: s.from,
    userAgent: s.userAgent,
    current: s.id === current,
  });
  const liveSessionsOf = (accountId: string, c: Context) => {
    const now = Date.now();
    const current = deps.authenticator.current(c)?.id;
    return sessions
      .ofAccount(accountId)
      .filter((s) => sessionLive(s, now, options))
      .map((s) => view(s, current));
  };

  /** Ends a session at identity, and waits until this gateway's read model has it gone. */
  async function end(
    c: Context<ServiceEnv>,
    session: SessionRecord,
    reason: 'logout' | 'revoked',
    by: Principal,
  ) {
    await identity.call(
      internalEndSessionRoute,
      { params: { sessionId: session.id }, body: { reason, ...client(c) } },
      { principal: by, ids: ids(c) },
    );
    if (!(await sessions.waitFor(session.id, false, deps.waitMs)))
      deps.log.warn({ session: session.id }, 'sessions read model lags behind');
  }

  app.openapi(signInRoute, async (c) => {
    refuseCrossSite(c);
    const { email, password } = c.req.valid('json');
    const emailKey = email.toLowerCase();
    await deps.brake.check(c);
    await emailBrake.check(emailKey);
    const now = Date.now();
    let started: Awaited<ReturnType<typeof identity.call<typeof internalSignInRoute>>>;
    try {
      started = await identity.call(
        internalSignInRoute,
        { body: { email, password, ...client(c), expiresAt: new Date(now + options.maxMs).toISOString() } },
        { principal: GATEWAY_PRINCIPAL, ids: ids(c) },
      );
    } catch (err) {
      if (!(err instanceof ProblemError) || err.status !== 401) throw err;
      await deps.brake.failed(c);
      await emailBrake.failed(emailKey);
      throw problems.unauthorized(SIGN_IN_REFUSED, 'Cookie');
    }
    await openSession(c, deps, started);
    return c.json(started.person, 200);
  });

  const signOut: SignOut = async (c) => {
    refuseCrossSite(c);
    const session = deps.authenticator.current(c);
    if (session) {
      const person: Principal = { account: session.accountId, subject: session.accountId, roles: [] };
      try {
        await end(c, session, 'logout', person);
      } catch (err) {
        // Ended a moment ago by another request: signed out all the same.
        if (!(err instanceof ProblemError) || err.status !== 404) throw err;
      }
    }
    deleteCookie(c, options.cookieName, { path: '/' });
  };
  app.openapi(signOutRoute, async (c) => {
    await signOut(c);
    return c.body(null, 204);
  });

  app.openapi(listSessionsRoute, (c) => c.json(liveSessionsOf(c.var.principal.subject, c), 200));

  app.openapi(endSessionRoute, async (c) => {
    const session = sessions.byId(c.req.valid('param').id);
    if (session?.accountId !== c.var.principal.subject) throw problems.notFound('no such session');
    await end(c, session, 'revoked', c.var.principal);
    return c.body(null, 204);
  });

  app.openapi(listAccountSessionsRoute, (c) => c.json(liveSessionsOf(c.req.valid('param').id, c), 200));

  app.openapi(endAccountSessionRoute, async (c) => {
    const { id, sessionId } = c.req.valid('param');
    const session = sessions.byId(sessionId);
    if (session?.accountId !== id) throw problems.notFound('no such session');
    await end(c, session, 'revoked', c.var.principal);
    return c.body(null, 204);
  });

  app.openapi(listSignInsRoute, (c) => {
    if (!AUDIT_ROLES.some((role) => c.var.principal.roles.includes(role)))
      throw problems.forbidden(`this needs the role ${AUDIT_ROLES.join(' or ')}`);
    const { total, records } = sessions.signIns(c.req.valid('query'));
    c.header('svc-total-count', String(total));
    return c.json(records, 200);
  });
  return { signOut };
}
