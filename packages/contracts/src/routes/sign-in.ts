/**
 * Password sign-in and sessions (DESIGN.md, "People"): the public routes, and identity's internal ones
 * that decide a sign-in and end a session.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { UsrId } from '../ids';
import { internalRoute } from '../internal-route';
import { problemsFor } from '../responses';
import {
  InternalEndSessionRequest,
  InternalSignInRequest,
  InternalSignInResponse,
  LiveSession,
  Session,
  SessionId,
  SignedInPerson,
  SignInRecord,
  SignInRecordQuery,
  SignInRequest,
} from '../sign-in';

const TAGS = ['sign-in'];
const SESSION_COOKIE_NOTE =
  'Requests made with the session cookie act as the person, with the person\u2019s roles; `svc-run-as` ' +
  'is refused with them (400). An unsafe request (POST, PUT, PATCH, DELETE) made with the cookie is ' +
  'refused (403) when the browser says it came from another site (`Sec-Fetch-Site`) or names a foreign ' +
  '`Origin`.';

export const signInRoute = createRoute({
  operationId: 'signIn',
  method: 'post',
  path: '/api/auth/v1/login',
  tags: TAGS,
  security: [],
  summary: 'Sign a person in with e-mail and password',
  description:
    'Starts a session: the answer sets the session cookie (HttpOnly, SameSite=Lax, Secure over HTTPS). ' +
    'An unknown e-mail, a wrong password and an inactive person are answered alike (401). Failed ' +
    'sign-ins are braked per address and per e-mail (429 with Retry-After). ' +
    SESSION_COOKIE_NOTE,
  request: { body: { required: true, content: { 'application/json': { schema: SignInRequest } } } },
  responses: {
    200: { description: 'Signed in.', content: { 'application/json': { schema: SignedInPerson } } },
    ...problemsFor(400, 401, 403, 413, 415, 429, 503),
  },
});

export const signOutRoute = createRoute({
  operationId: 'signOut',
  method: 'post',
  path: '/api/auth/v1/logout',
  tags: TAGS,
  security: [],
  summary: 'End the session of the cookie, and clear the cookie',
  description: 'Answers 204 also when the cookie names no live session.',
  responses: { 204: { description: 'Signed out.' }, ...problemsFor(403, 429, 503) },
});

const SessionParams = z.object({ id: SessionId });

export const listSessionsRoute = createRoute({
  operationId: 'listSessions',
  method: 'get',
  path: '/api/auth/v1/sessions',
  tags: TAGS,
  summary: 'The live sessions of the signed-in person, newest first',
  responses: {
    200: { description: 'The sessions.', content: { 'application/json': { schema: z.array(Session) } } },
    ...problemsFor(401, 403, 429, 503),
  },
});

export const endSessionRoute = createRoute({
  operationId: 'endSession',
  method: 'delete',
  path: '/api/auth/v1/sessions/{id}',
  tags: TAGS,
  summary: 'End one of the signed-in person\u2019s sessions',
  request: { params: SessionParams },
  responses: { 204: { description: 'Ended.' }, ...problemsFor(400, 401, 403, 404, 429, 503) },
});

const AccountSessionParams = z.object({ id: UsrId, sessionId: SessionId });

export const listAccountSessionsRoute = createRoute({
  operationId: 'listAccountSessions',
  method: 'get',
  path: '/api/admin/v1/accounts/{id}/sessions',
  tags: ['admin'],
  summary: 'The live sessions of a person, newest first',
  description: 'Needs role `svcAdminSysRW`.',
  request: { params: z.object({ id: UsrId }) },
  responses: {
    200: { description: 'The sessions.', content: { 'application/json': { schema: z.array(Session) } } },
    ...problemsFor(400, 401, 403, 429, 503),
  },
});

export const endAccountSessionRoute = createRoute({
  operationId: 'endAccountSession',
  method: 'delete',
  path: '/api/admin/v1/accounts/{id}/sessions/{sessionId}',
  tags: ['admin'],
  summary: 'End a session of a person',
  description: 'Needs role `svcAdminSysRW`.',
  request: { params: AccountSessionParams },
  responses: { 204: { description: 'Ended.' }, ...problemsFor(400, 401, 403, 404, 429, 503) },
});

export const listSignInsRoute = createRoute({
  operationId: 'listSignIns',
  method: 'get',
  path: '/api/auth/v1/sign-ins',
  tags: TAGS,
  summary: 'Sign-ins, sign-outs and failed sign-ins, newest first',
  description:
    'Needs role `svcAuditR` or `svcAdminSysRW`. Who, when and from where; never a password or a token. ' +
    'Lists may lag the events by a moment.',
  request: { query: SignInRecordQuery },
  responses: {
    200: {
      description: 'The page of records; `svc-total-count` is the number matching before paging.',
      headers: { 'svc-total-count': { schema: { type: 'integer' } } },
      content: { 'application/json': { schema: z.array(SignInRecord) } },
    },
    ...problemsFor(400, 401, 403, 429, 503),
  },
});

/** identity: checks a password and, when it is right, starts a session (401 alike for every failure). */
export const internalSignInRoute = internalRoute({
  method: 'post',
  path: '/internal/v1/sign-in',
  body: InternalSignInRequest,
  output: InternalSignInResponse,
  problems: [400, 401, 415, 503],
});

/** identity: a live session (404 when the id names none). */
export const internalSessionRoute = internalRoute({
  method: 'get',
  path: '/internal/v1/sessions/{sessionId}',
  params: z.object({ sessionId: SessionId }),
  output: LiveSession,
  problems: [400, 401, 404, 503],
});

/** identity: ends a session (404 when it is not live). */
export const internalEndSessionRoute = internalRoute({
  method: 'post',
  path: '/internal/v1/sessions/{sessionId}/end',
  params: z.object({ sessionId: SessionId }),
  body: InternalEndSessionRequest,
  output: 'empty',
  problems: [400, 401, 404, 415, 503],
});
