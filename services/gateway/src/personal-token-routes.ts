/**
 * Personal access tokens at the edge (contracts' personal-tokens.ts). Identity issues and revokes them
 * as events on the person's stream; this gateway's accounts read model (fed by them) authenticates a
 * token and answers the listings, and each command waits until the read model shows its effect, so the
 * caller's next request finds it.
 */
import {
  createPersonalTokenRoute,
  internalIssueTokenRoute,
  internalRevokeTokenRoute,
  listAccountTokensRoute,
  listPersonalTokensRoute,
  revokeAccountTokenRoute,
  revokePersonalTokenRoute,
} from '@docflow/contracts';
import type { Logger } from '@docflow/kit';
import { internalClient, problems, type ServiceClient, type ServiceEnv } from '@docflow/kit/http';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AccountsReadModel } from './accounts-read-model';
import type { SessionAuthenticator } from './session-auth';

export interface PersonalTokenDeps {
  identity: ServiceClient;
  internalToken: string;
  accounts: AccountsReadModel;
  sessions: SessionAuthenticator;
  waitMs: number;
  log: Logger;
}

const ids = (c: Context<ServiceEnv>) => ({ requestId: c.var.requestId, correlationId: c.var.correlationId });

export function personalTokenRoutes(app: OpenAPIHono<ServiceEnv>, deps: PersonalTokenDeps): void {
  const { accounts } = deps;
  const identity = internalClient(deps.identity, deps.internalToken);

  /** The person acting as themself (a session or a token): 403 for a service account or `svc-run-as`. */
  function ownPerson(c: Context<ServiceEnv>): string {
    const { principal } = c.var;
    if (principal.runAs !== undefined || accounts.byId(principal.subject)?.kind !== 'person')
      throw problems.forbidden('personal access tokens are a person\u2019s own: sign in as the person');
    return principal.subject;
  }

  async function caughtUp(accountId: string, publishedRev: number) {
    if (!(await accounts.waitForRevision(accountId, publishedRev, deps.waitMs)))
      deps.log.warn({ account: accountId }, 'account read model lags behind');
  }

  async function revoke(c: Context<ServiceEnv>, accountId: string, tokenId: string) {
    if (!accounts.personalTokensOf(accountId).some((t) => t.id === tokenId))
      throw problems.notFound('no such token');
    const { publishedRev } = await identity.call(
      internalRevokeTokenRoute,
      { params: { id: accountId, tokenId } },
      { principal: c.var.principal, ids: ids(c) },
    );
    await caughtUp(accountId, publishedRev);
  }

  app.openapi(createPersonalTokenRoute, async (c) => {
    const person = ownPerson(c);
    // Only a signed-in person makes a token: a leaked token cannot make itself a longer-lived one.
    const session = c.req.header('authorization') === undefined ? deps.sessions.current(c) : undefined;
    if (session?.accountId !== person)
      throw problems.forbidden('a personal access token is made while signed in (with the session cookie)');
    const { name, expiresAt } = c.req.valid('json');
    const expires = expiresAt === undefined ? null : new Date(expiresAt);
    if (expires && expires.getTime() <= Date.now())
      throw problems.badRequest('expiresAt must lie in the future');
    const { token, publishedRev } = await identity.call(
      internalIssueTokenRoute,
      { params: { id: person }, body: { name, expiresAt: expires?.toISOString() ?? null } },
      { principal: c.var.principal, ids: ids(c) },
    );
    await caughtUp(person, publishedRev);
    c.header('cache-control', 'no-store');
    return c.json(token, 201);
  });

  app.openapi(listPersonalTokensRoute, (c) => c.json(accounts.personalTokensOf(ownPerson(c)), 200));

  app.openapi(revokePersonalTokenRoute, async (c) => {
    await revoke(c, ownPerson(c), c.req.valid('param').id);
    return c.body(null, 204);
  });

  app.openapi(listAccountTokensRoute, (c) => c.json(accounts.personalTokensOf(c.req.valid('param').id), 200));

  app.openapi(revokeAccountTokenRoute, async (c) => {
    const { id, tokenId } = c.req.valid('param');
    await revoke(c, id, tokenId);
    return c.body(null, 204);
  });
}
