/**
 * A person signing in with a password, and the server-side sessions that follow (DESIGN.md, "People"):
 * the public bodies, the events of identity's `session-<id>` streams, and the bodies of identity's
 * internal sign-in routes.
 *
 * A session's token is random (256 bits) and is kept only as its SHA-256, like an API key. No password
 * or token is ever in an event.
 */
import { z } from '@hono/zod-openapi';
import { AccountKind } from './accounts';
import { Hex24Id, Timestamp, UsrId } from './ids';
import { Role } from './roles';

/** Longer than any password `pwd` accepts (and than any e-mail): refused before it is hashed. */
const PASSWORD_MAX = 256;
const EMAIL_MAX = 254;

export const SignInRequest = z
  .strictObject({
    email: z.string().trim().min(1).max(EMAIL_MAX).openapi({ format: 'email' }),
    password: z.string().min(1).max(PASSWORD_MAX).openapi({ format: 'password', writeOnly: true }),
  })
  .openapi('SignInRequest');
export type SignInRequest = z.infer<typeof SignInRequest>;

export const SignedInPerson = z
  .object({
    _id_sys: UsrId,
    kind: AccountKind,
    displayName: z.string(),
    email: z.string(),
    roles: z.array(Role),
  })
  .openapi('SignedInPerson');
export type SignedInPerson = z.infer<typeof SignedInPerson>;

export const SessionId = Hex24Id;

/** The detail of the one answer (401) to every failed sign-in, whatever failed. */
export const SIGN_IN_REFUSED = 'wrong e-mail or password';

export const Session = z
  .object({
    id: SessionId,
    started: Timestamp,
    /** When the session ends at the latest (the absolute time-out). */
    expires: Timestamp,
    lastUsed: Timestamp,
    from: z.string().openapi({ description: 'The client address the sign-in came from.' }),
    userAgent: z.string(),
    current: z.boolean().openapi({ description: 'The session this request was made with.' }),
  })
  .openapi('Session');
export type Session = z.infer<typeof Session>;

export const SIGN_IN_EVENT_TYPES = ['SignedIn', 'SignedOut', 'SignInFailed'] as const;

/** One sign-in, sign-out or failed sign-in, as an auditor lists them. */
export const SignInRecord = z
  .object({
    type: z.enum(SIGN_IN_EVENT_TYPES),
    time: Timestamp,
    /** The account signed in or out; on a failure, the account the e-mail named (null: none). */
    account: UsrId.nullable(),
    session: SessionId,
    from: z.string(),
    userAgent: z.string(),
    /** Sign-outs: `logout` (the person), `revoked` (the person or an admin, by the sessions API). */
    reason: z.string().optional(),
    /** Who ended the session (sign-outs). */
    by: UsrId.optional(),
  })
  .openapi('SignInRecord');
export type SignInRecord = z.infer<typeof SignInRecord>;

export const SignInRecordQuery = z.object({
  account: UsrId.optional(),
  limit: z
    .string()
    .regex(/^\d+$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(1000))
    .default(100)
    .openapi({ type: 'integer', minimum: 1, maximum: 1000, default: 100 }),
  offset: z
    .string()
    .regex(/^\d+$/)
    .transform(Number)
    .pipe(z.number().int().min(0))
    .default(0)
    .openapi({ type: 'integer', minimum: 0, default: 0 }),
});

const SHA256_HEX = /^[0-9a-f]{64}$/;
/** What a client sent of itself, bounded. */
export const ClientText = z.string().max(512);

/** Events of identity's `session-<id>` streams (schema version 1). */
export const SessionEvents = {
  SessionStarted: z.object({
    accountId: UsrId,
    /** SHA-256 of the session's token; never the token. */
    tokenHash: z.string().regex(SHA256_HEX),
    from: ClientText,
    userAgent: ClientText,
    expiresAt: Timestamp,
  }),
  /** `from` and `userAgent`: of the request that ended it. */
  SessionEnded: z.object({
    accountId: UsrId,
    reason: z.enum(['logout', 'revoked']),
    by: UsrId,
    from: ClientText,
    userAgent: ClientText,
  }),
  /** A sign-in refused: no such person, a wrong password, or an inactive person (not told apart). */
  SignInFailed: z.object({ accountId: UsrId.nullable(), from: ClientText, userAgent: ClientText }),
};
export type SessionEvent = {
  [K in keyof typeof SessionEvents]: { type: K; data: z.infer<(typeof SessionEvents)[K]> };
}[keyof typeof SessionEvents];

/** Validates a stored or delivered session event; throws on an unknown type or a bad payload. */
export function parseSessionEvent(type: string, data: unknown): SessionEvent {
  const schema = SessionEvents[type as keyof typeof SessionEvents];
  if (!schema) throw new Error(`unknown session event type ${type}`);
  return { type, data: schema.parse(data) } as SessionEvent;
}

export const sessionStream = (id: string) => `session-${id}`;

/**
 * A session token: `dfs_`, the session's id, `_`, 256 random bits in base64url. The id is no secret; it
 * lets a gateway the bus has not brought the session to yet ask identity about it instead of refusing
 * the cookie (as an API key names its account: api-keys.ts).
 */
export const SESSION_TOKEN_PATTERN = /^dfs_([0-9a-f]{24})_[A-Za-z0-9_-]{43}$/;

/** The token of session `sessionId` from `secret` (43 base64url characters). */
export function sessionTokenFor(sessionId: string, secret: string): string {
  const token = `dfs_${sessionId}_${secret}`;
  if (!SESSION_TOKEN_PATTERN.test(token)) throw new RangeError('not a session id and a 256-bit secret');
  return token;
}

/** The session id a token names; undefined for any other string. */
export const sessionIdOfToken = (token: string): string | undefined => SESSION_TOKEN_PATTERN.exec(token)?.[1];
export const SESSION_STREAM_PREFIX = 'session-';

/** identity: `POST /internal/v1/sign-in`. */
export const InternalSignInRequest = SignInRequest.extend({
  from: ClientText,
  userAgent: ClientText,
  /** The absolute time-out of the session, if one starts. */
  expiresAt: Timestamp,
});
export const InternalSignInResponse = z.object({
  sessionId: SessionId,
  /** The session's token, given once: the gateway puts it in the cookie. */
  token: z.string(),
  person: SignedInPerson,
});

/**
 * identity: `GET /internal/v1/sessions/{sessionId}` — a live session as it started (404 when the id
 * names none: never started, ended, or its person deactivated or erased since).
 */
export const LiveSession = SessionEvents.SessionStarted.extend({
  /** When it started (the SessionStarted event's time). */
  started: Timestamp,
});
export type LiveSession = z.infer<typeof LiveSession>;

/** identity: `POST /internal/v1/sessions/{sessionId}/end`. */
export const InternalEndSessionRequest = z.strictObject({
  reason: z.enum(['logout', 'revoked']),
  from: ClientText,
  userAgent: ClientText,
});
