/**
 * The principal the gateway passes to services, and the middleware by which a service trusts it
 * only when the request carries the internal secret (DOCFLOW_INTERNAL_TOKEN).
 */
import { timingSafeEqual } from 'node:crypto';
import type { Role } from '@docflow/contracts';
import type { MiddlewareHandler } from 'hono';
import { problems } from './problem';

export interface Principal {
  /** `usr-` id of the authenticated service account (always recorded as the event's actor). */
  account: string;
  /** `usr-` id of the run-as user, when svc-run-as was given. */
  runAs?: string;
  /** The effective principal: the run-as user if any, else the service account. */
  subject: string;
  /**
   * The roles that count for this request: the service account's; with run-as, those the person and
   * the service account both hold (principalOf).
   */
  roles: Role[];
}

/** An account as the gateway knows it, for principalOf: its `usr-` id and roles. */
export interface RoleHolder {
  id: string;
  roles: readonly Role[];
}

/**
 * The principal of a request (DESIGN.md "Run-as"): the service account, or the person it runs as.
 * Through run-as the person's document rights apply (the subject: authorship, participation,
 * deputies), but a role counts only where the service account holds it too, so run-as never gives a
 * service account more than it was granted.
 * @example principalOf(serviceAccount, runAs ? person : undefined)
 */
export function principalOf(account: RoleHolder, runAs?: RoleHolder): Principal {
  if (!runAs) return { account: account.id, subject: account.id, roles: [...account.roles] };
  const roles = runAs.roles.filter((role) => account.roles.includes(role));
  return { account: account.id, runAs: runAs.id, subject: runAs.id, roles };
}

export const INTERNAL_TOKEN_HEADER = 'x-docflow-internal-token';
export const PRINCIPAL_HEADER = 'x-docflow-principal';

export function encodePrincipal(p: Principal): string {
  return Buffer.from(JSON.stringify(p)).toString('base64url');
}

function decodePrincipal(value: string): Principal | undefined {
  try {
    const p = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Principal;
    return typeof p.account === 'string' && typeof p.subject === 'string' && Array.isArray(p.roles)
      ? p
      : undefined;
  } catch {
    return undefined;
  }
}

export type PrincipalVariables = { principal: Principal };

/**
 * Embedded mode: the caller's token and principal, handed to the service app as its environment by
 * the in-process client instead of encoded into headers. Only code in the process can set an app's
 * environment; over HTTP it is @hono/node-server's, without this key.
 */
export const IN_PROCESS_CALLER = Symbol('docflow.inProcessCaller');
export interface InProcessCaller {
  internalToken: string;
  principal: Principal;
}
export type InProcessEnv = { [IN_PROCESS_CALLER]?: InProcessCaller };

/**
 * Service-side guard: 401 unless the internal token matches; then `c.get('principal')` is set.
 * @example app.use(INTERNAL_PATHS, trustGatewayPrincipal(config.DOCFLOW_INTERNAL_TOKEN));
 */
export function trustGatewayPrincipal(
  internalToken: string,
): MiddlewareHandler<{ Variables: PrincipalVariables }> {
  const expected = Buffer.from(internalToken);
  // Compared in constant time where a client sent it; a caller in the process holds the very string.
  const trusted = (token: string, inProcess: boolean) => {
    if (inProcess) return token === internalToken;
    const presented = Buffer.from(token);
    return presented.length === expected.length && timingSafeEqual(presented, expected);
  };
  return async function trustGatewayPrincipalMiddleware(c, next) {
    const inProcess = (c.env as InProcessEnv | undefined)?.[IN_PROCESS_CALLER];
    const token = inProcess ? inProcess.internalToken : c.req.header(INTERNAL_TOKEN_HEADER);
    if (!token || !trusted(token, inProcess !== undefined))
      throw problems.unauthorized('missing or wrong internal token');
    const encoded = inProcess ? undefined : c.req.header(PRINCIPAL_HEADER);
    const principal = inProcess ? inProcess.principal : encoded ? decodePrincipal(encoded) : undefined;
    if (!principal) throw problems.unauthorized('missing principal');
    c.set('principal', principal);
    await next();
  };
}
