/**
 * Bearer API-key authentication and `svc-run-as`. Without run-as the service account is the
 * principal; with it, the named active person is, and only that person's roles count.
 *
 * A person created a moment ago through another gateway may not be in this gateway's read model yet
 * (the bus brings it): a run-as the read model does not know is checked with identity, and when
 * identity knows the account the request waits (bounded) for the bus instead of being refused.
 */
import { createHash } from 'node:crypto';
import { type Role, USR_ID_PATTERN } from '@docflow/contracts';
import { type Principal, type PrincipalVariables, problems } from '@docflow/kit/http';
import type { MiddlewareHandler } from 'hono';
import type { AccountIdLookUp } from './account-lookup';
import type { AccountRecord, AccountsReadModel } from './accounts-read-model';
import type { AuthFailureBrake } from './auth-failures';

export const RUN_AS_HEADER = 'svc-run-as';
const BEARER = /^Bearer\s+(\S+)\s*$/i;
/** Longer or shorter than any address identity accepts: names nobody. */
const EMAIL_LENGTH = { min: 3, max: 254 };

export interface RunAsLookUps {
  /** Which account holds an e-mail now (cached). */
  byEmail: AccountIdLookUp;
  /** Whether identity knows a `usr-` id (asked only when the read model does not). */
  byId: AccountIdLookUp;
  /** Longest wait for the read model to receive an account identity knows. */
  waitMs: number;
}

type Caller = Parameters<AccountIdLookUp>[1];

export function authenticate(
  accounts: AccountsReadModel,
  lookUps: RunAsLookUps,
  brake: AuthFailureBrake,
): MiddlewareHandler<{ Variables: PrincipalVariables & { requestId: string; correlationId: string } }> {
  /** The account a run-as names, from the read model; undefined when it names none. */
  async function runAsAccount(runAs: string, caller: Caller): Promise<AccountRecord | undefined> {
    const byId = runAs.startsWith('usr-');
    if (!byId && (runAs.length < EMAIL_LENGTH.min || runAs.length > EMAIL_LENGTH.max)) return undefined;
    const id = byId ? runAs : await lookUps.byEmail(runAs, caller);
    if (id === undefined) return undefined;
    const known = accounts.byId(id);
    if (known) return known;
    if (byId && (!USR_ID_PATTERN.test(id) || (await lookUps.byId(id, caller)) === undefined))
      return undefined;
    if (await accounts.waitForRevision(id, 1, lookUps.waitMs)) return accounts.byId(id);
    throw problems.unavailable(
      'svc-run-as names an account this gateway has not received yet; retry shortly',
    );
  }

  return async function authenticateMiddleware(c, next) {
    await brake.check(c);
    const match = BEARER.exec(c.req.header('authorization') ?? '');
    if (!match) {
      await brake.failed(c);
      throw problems.unauthorized('send Authorization: Bearer <api key>');
    }
    const keyHash = createHash('sha256').update(match[1]!).digest('hex');
    const account = accounts.byKeyHash(keyHash);
    if (!account?.active || account.kind !== 'service') {
      await brake.failed(c);
      throw problems.unauthorized('unknown or inactive API key', 'Bearer error="invalid_token"');
    }
    const runAs = c.req.header(RUN_AS_HEADER)?.trim();
    let principal: Principal = { account: account.id, subject: account.id, roles: account.roles };
    // Present but empty is a mistake of the caller, never a silent fall-back to the service account.
    if (runAs === '') throw problems.badRequest(`${RUN_AS_HEADER} is empty: name a usr- id or an e-mail`);
    if (runAs !== undefined) {
      const user = await runAsAccount(runAs, {
        principal,
        requestId: c.get('requestId'),
        correlationId: c.get('correlationId'),
      });
      if (user?.kind !== 'person') throw problems.forbidden('svc-run-as names no known user');
      if (!user.active) throw problems.forbidden('svc-run-as names an inactive user');
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
