/**
 * The gateway's half of starting a session, whatever proved who the person is (a password, an
 * identity provider): identity has started it; this waits until the sessions read model holds it (so
 * the browser's next request finds it) and sets the session cookie.
 */
import type { Logger } from '@docflow/kit';
import type { ServiceEnv } from '@docflow/kit/http';
import type { Context } from 'hono';
import { setCookie } from 'hono/cookie';
import { clientAddress } from './auth-failures';
import type { SessionOptions } from './config';
import type { SessionsReadModel } from './sessions-read-model';

const USER_AGENT_MAX = 512;

export const requestIds = (c: Context<ServiceEnv>) => ({
  requestId: c.var.requestId,
  correlationId: c.var.correlationId,
});

/** Where a request came from, as a sign-in records it. */
export const signInClient = (c: Context) => ({
  from: clientAddress(c),
  userAgent: (c.req.header('user-agent') ?? '').slice(0, USER_AGENT_MAX),
});

export const overHttps = (c: Context) =>
  new URL(c.req.url).protocol === 'https:' ||
  c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';

export interface SessionOpenDeps {
  sessions: SessionsReadModel;
  options: SessionOptions;
  waitMs: number;
  log: Logger;
}

export async function openSession(
  c: Context,
  deps: SessionOpenDeps,
  started: { sessionId: string; token: string },
): Promise<void> {
  if (!(await deps.sessions.waitFor(started.sessionId, true, deps.waitMs)))
    deps.log.warn({ session: started.sessionId }, 'sessions read model lags behind');
  setCookie(c, deps.options.cookieName, started.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: deps.options.secure === 'always' || overHttps(c),
    maxAge: Math.floor(deps.options.maxMs / 1000),
  });
  c.header('cache-control', 'no-store');
}
