/**
 * Bearer API-key authentication and `svc-run-as` (or, without a key, a person's session cookie:
 * session-auth.ts). Without run-as the service account is the
 * principal; with it, the named active person is, with only the roles both hold (kit's principalOf).
 * A person's personal access token is a key of the same shape and road: it makes the person the
 * principal with the person's own roles, and never takes `svc-run-as`.
 *
 * An account created a moment ago through another gateway may not be in this gateway's read model yet
 * (the bus brings it): a run-as the read model does not know, and a key naming a service account it
 * does not know (contracts' api-keys.ts), are checked with identity. What identity says is no active
 * account of the kind is refused at once; for one that is, the request waits (bounded) until the read
 * model holds the account as identity has it, and is then checked against the read model.
 */
import { createHash } from 'node:crypto';
import { accountIdOfApiKey, type ResolvedAccount, type Role, USR_ID_PATTERN } from '@docflow/contracts';
import { type PrincipalVariables, principalOf, problems, type RequestVariables } from '@docflow/kit/http';
import type { Context, MiddlewareHandler } from 'hono';
import { type AccountLookUp, GATEWAY_PRINCIPAL, type LookUpCaller } from './account-lookup';
import type { AccountRecord, AccountsReadModel, KeyHolder } from './accounts-read-model';
import type { AuthFailureBrake } from './auth-failures';
import type { SessionAuthenticator } from './session-auth';

export const RUN_AS_HEADER = 'svc-run-as';
const BEARER = /^Bearer\s+(\S+)\s*$/i;
/** Longer or shorter than any address identity accepts: names nobody. */
const EMAIL_LENGTH = { min: 3, max: 254 };

export interface AccountLookUps {
  /** Which account holds an e-mail now (cached). */
  byEmail: AccountLookUp;
  /** The account identity has under a `usr-` id (asked only when the read model does not know it). */
  byId: AccountLookUp;
  /** Longest wait for the read model to reach the account as identity has it. */
  waitMs: number;
}

const namesNobody = () => problems.forbidden('svc-run-as names no known user');
/**
 * Who asks identity about the account a key names: no principal is established yet, so the gateway
 * itself, with no role (identity's resolve reads no principal).
 */
const KEY_CHECK_PRINCIPAL = GATEWAY_PRINCIPAL;
/** The revision that holds a new service account's key: AccountCreated, then ApiKeyIssued. */
const KEY_ISSUED_REV = 2;

/** 403 unless `account` is an active person. */
function mustBeActivePerson<A extends Pick<AccountRecord, 'kind' | 'active'>>(
  account: A | undefined,
): asserts account is A {
  if (account?.kind !== 'person') throw namesNobody();
  if (!account.active) throw problems.forbidden('svc-run-as names an inactive user');
}

export function authenticate(
  accounts: AccountsReadModel,
  lookUps: AccountLookUps,
  brake: AuthFailureBrake,
  sessions?: SessionAuthenticator,
): MiddlewareHandler<{ Variables: PrincipalVariables & RequestVariables }> {
  /**
   * Resolves true once the read model holds the account as identity has it (an identity older than
   * publishedRev: at `fallbackRev`); false after the wait.
   */
  const received = (atIdentity: ResolvedAccount, fallbackRev: number) =>
    accounts.waitForRevision(atIdentity.id, atIdentity.publishedRev ?? fallbackRev, lookUps.waitMs);

  /** Identity's answer about the account of a key, one call at a time per account however many ask. */
  const keyAccountLookUps = new Map<string, Promise<ResolvedAccount | undefined>>();
  function keyAccountAtIdentity(id: string, ids: Omit<LookUpCaller, 'principal'>) {
    let pending = keyAccountLookUps.get(id);
    if (!pending) {
      pending = lookUps.byId(id, { principal: KEY_CHECK_PRINCIPAL, ...ids });
      keyAccountLookUps.set(id, pending);
      const forget = () => keyAccountLookUps.delete(id);
      pending.then(forget, forget);
    }
    return pending;
  }

  /**
   * The holder of a key the read model does not hold, when the key names (api-keys.ts) a service
   * account the read model does not have with its key yet, or a person identity has at a newer
   * revision (a personal access token issued through another gateway a moment ago): identity is asked,
   * the bus awaited, and the key looked up again. Undefined when the key names no such account,
   * `unavailable` when the bus was slower than the wait; throws when identity could not be asked.
   */
  async function accountOfNewKey(key: string, keyHash: string, ids: Omit<LookUpCaller, 'principal'>) {
    const id = accountIdOfApiKey(key);
    if (id === undefined) return undefined;
    const known = accounts.byId(id);
    if (known?.kind === 'service' && known.keyHash !== null) return undefined;
    const atIdentity = await keyAccountAtIdentity(id, ids);
    if (!atIdentity?.active || (known && known.kind !== atIdentity.kind)) return undefined;
    // A person holds a token from their second published revision on: one the read model holds as
    // identity has it (or a new one without a token yet) has no token on its way.
    if (atIdentity.kind === 'person' && (atIdentity.publishedRev ?? 0) <= (known?.rev ?? 1)) return undefined;
    if (!(await received(atIdentity, KEY_ISSUED_REV))) return 'unavailable' as const;
    return accounts.byKeyHash(keyHash);
  }

  /** The person of a live personal access token: 401 once it expired or its person is inactive. */
  async function personalTokenPrincipal(c: Context, holder: KeyHolder) {
    if (c.req.header(RUN_AS_HEADER) !== undefined)
      throw problems.badRequest(
        `${RUN_AS_HEADER} is for service accounts: a personal access token acts as its person only`,
      );
    const expires = holder.personalToken?.expires;
    if (!holder.active || (expires != null && Date.parse(expires) <= Date.now())) {
      await brake.failed(c);
      throw problems.unauthorized('unknown, expired or revoked token', 'Bearer error="invalid_token"');
    }
    return principalOf(holder);
  }

  /**
   * The active person a run-as names, from the read model: 403 when it names none; when the read model
   * does not know the account yet, identity is asked and the bus awaited (503 if it is slower).
   */
  async function runAsPerson(runAs: string, caller: LookUpCaller): Promise<AccountRecord> {
    const byId = USR_ID_PATTERN.test(runAs);
    if (!byId && (runAs.length < EMAIL_LENGTH.min || runAs.length > EMAIL_LENGTH.max)) throw namesNobody();
    const holder = byId ? undefined : await lookUps.byEmail(runAs, caller);
    const id = byId ? runAs : holder?.id;
    if (id === undefined) throw namesNobody();
    // One read-model lookup on the common path (a known person); a second only after waiting for the bus.
    let person = accounts.byId(id);
    if (!person) {
      const atIdentity = holder ?? (await lookUps.byId(id, caller));
      mustBeActivePerson(atIdentity);
      // An identity older than publishedRev: the account's creation, as before.
      if (!(await received(atIdentity, 1)))
        throw problems.unavailable(
          `${RUN_AS_HEADER} names an account this gateway has not received yet; retry shortly`,
        );
      person = accounts.byId(id);
    }
    mustBeActivePerson(person);
    return person;
  }

  return async function authenticateMiddleware(c, next) {
    await brake.check(c);
    const authorization = c.req.header('authorization');
    // A person's session cookie, when no API key is presented (session-auth.ts).
    const sessionToken = authorization === undefined ? sessions?.token(c) : undefined;
    if (sessions && sessionToken !== undefined) {
      c.set('principal', await sessions.principal(c, sessionToken));
      return next();
    }
    const match = BEARER.exec(authorization ?? '');
    if (!match) {
      await brake.failed(c);
      throw problems.unauthorized('send Authorization: Bearer <api key>');
    }
    const key = match[1]!;
    const keyHash = createHash('sha256').update(key).digest('hex');
    const ids = { requestId: c.get('requestId'), correlationId: c.get('correlationId') };
    let account = accounts.byKeyHash(keyHash);
    if (!account) {
      // Unauthenticated work (a call to identity, a wait): counted by the brake unless it let the key in.
      let found: Awaited<ReturnType<typeof accountOfNewKey>>;
      try {
        found = await accountOfNewKey(key, keyHash, ids);
      } catch (err) {
        c.var.log.warn({ err }, 'could not ask identity about the account an API key names');
        found = 'unavailable';
      }
      if (found === 'unavailable') {
        await brake.failed(c);
        // One answer whatever the cause (identity not answering, the bus slower than the wait), no detail.
        throw problems.unavailable('the API key cannot be checked now; retry shortly');
      }
      account = found;
    }
    if (account?.kind === 'person' && account.personalToken) {
      c.set('principal', await personalTokenPrincipal(c, account));
      return next();
    }
    if (!account?.active || account.kind !== 'service') {
      await brake.failed(c);
      throw problems.unauthorized('unknown or inactive API key', 'Bearer error="invalid_token"');
    }
    const runAs = c.req.header(RUN_AS_HEADER)?.trim();
    let principal = principalOf(account);
    // Present but empty is a mistake of the caller, never a silent fall-back to the service account.
    if (runAs === '') throw problems.badRequest(`${RUN_AS_HEADER} is empty: name a usr- id or an e-mail`);
    if (runAs !== undefined) {
      const user = await runAsPerson(runAs, { principal, ...ids });
      principal = principalOf(account, user);
    }
    c.set('principal', principal);
    await next();
  };
}

/** 403 unless the effective principal holds `role`. */
export function requireRole(role: Role): MiddlewareHandler<{ Variables: PrincipalVariables }> {
  return async function requireRoleMiddleware(c, next) {
    if (!c.var.principal.roles.includes(role)) throw problems.forbidden(`this needs the role ${role}`);
    await next();
  };
}
