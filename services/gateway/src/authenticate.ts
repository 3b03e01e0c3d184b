/**
 * Bearer API-key authentication and `svc-run-as`. Without run-as the service account is the
 * principal; with it, the named active person is, and only that person's roles count.
 *
 * An account created a moment ago through another gateway may not be in this gateway's read model yet
 * (the bus brings it): a run-as the read model does not know, and a key naming a service account it
 * does not know (contracts' api-keys.ts), are checked with identity. What identity says is no active
 * account of the kind is refused at once; for one that is, the request waits (bounded) until the read
 * model holds the account as identity has it, and is then checked against the read model.
 */
import { createHash } from 'node:crypto';
import { accountIdOfApiKey, type ResolvedAccount, type Role, USR_ID_PATTERN } from '@docflow/contracts';
import { type Principal, type PrincipalVariables, problems } from '@docflow/kit/http';
import type { MiddlewareHandler } from 'hono';
import type { AccountLookUp, LookUpCaller } from './account-lookup';
import type { AccountRecord, AccountsReadModel } from './accounts-read-model';
import type { AuthFailureBrake } from './auth-failures';

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
const notReceivedYet = (what: string) =>
  problems.unavailable(`${what} names an account this gateway has not received yet; retry shortly`);

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
): MiddlewareHandler<{ Variables: PrincipalVariables & { requestId: string; correlationId: string } }> {
  /** Resolves true once the read model holds the account as identity has it; false after the wait. */
  const received = (atIdentity: ResolvedAccount) =>
    // An identity older than publishedRev: its creation, as before.
    accounts.waitForRevision(atIdentity.id, atIdentity.publishedRev ?? 1, lookUps.waitMs);

  /**
   * The service account of a key the read model does not hold, when the key names (api-keys.ts) a
   * service account the read model does not have with its key yet: identity is asked, the bus awaited
   * (503 if it is slower), and the key looked up again. Undefined when the key names no such account.
   */
  async function accountOfNewKey(key: string, keyHash: string, ids: Omit<LookUpCaller, 'principal'>) {
    const id = accountIdOfApiKey(key);
    if (id === undefined) return undefined;
    const known = accounts.byId(id);
    if (known && (known.kind !== 'service' || known.keyHash !== null)) return undefined;
    // No principal is established yet: the call is made as the account the key names, with no role.
    const atIdentity = await lookUps.byId(id, { principal: { account: id, subject: id, roles: [] }, ...ids });
    if (atIdentity?.kind !== 'service' || !atIdentity.active) return undefined;
    if (!(await received(atIdentity))) throw notReceivedYet('the API key');
    return accounts.byKeyHash(keyHash);
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
      if (!(await received(atIdentity))) throw notReceivedYet(RUN_AS_HEADER);
      person = accounts.byId(id);
    }
    mustBeActivePerson(person);
    return person;
  }

  return async function authenticateMiddleware(c, next) {
    await brake.check(c);
    const match = BEARER.exec(c.req.header('authorization') ?? '');
    if (!match) {
      await brake.failed(c);
      throw problems.unauthorized('send Authorization: Bearer <api key>');
    }
    const key = match[1]!;
    const keyHash = createHash('sha256').update(key).digest('hex');
    const ids = { requestId: c.get('requestId'), correlationId: c.get('correlationId') };
    const account = accounts.byKeyHash(keyHash) ?? (await accountOfNewKey(key, keyHash, ids));
    if (!account?.active || account.kind !== 'service') {
      await brake.failed(c);
      throw problems.unauthorized('unknown or inactive API key', 'Bearer error="invalid_token"');
    }
    const runAs = c.req.header(RUN_AS_HEADER)?.trim();
    let principal: Principal = { account: account.id, subject: account.id, roles: account.roles };
    // Present but empty is a mistake of the caller, never a silent fall-back to the service account.
    if (runAs === '') throw problems.badRequest(`${RUN_AS_HEADER} is empty: name a usr- id or an e-mail`);
    if (runAs !== undefined) {
      const user = await runAsPerson(runAs, { principal, ...ids });
      principal = { account: account.id, runAs: user.id, subject: user.id, roles: user.roles };
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
