/**
 * Single sign-on with OpenID Connect at the edge (authorization code with PKCE, by `openid-client`):
 * login sends the browser to the provider, the callback checks the provider's answer (state, nonce,
 * the ID token's signature, issuer, audience and expiry) and asks identity to open the session of the
 * person whose e-mail the provider vouches for; the session then is a password sign-in's. Logout ends
 * it and sends the browser on to the provider's end-session endpoint.
 *
 * No code, token or secret is logged or put in an answer's body.
 */
import {
  internalOidcSignInRoute,
  oidcCallbackRoute,
  oidcLoginRoute,
  oidcLogoutRoute,
  oidcProvidersRoute,
} from '@docflow/contracts';
import type { Logger } from '@docflow/kit';
import {
  internalClient,
  ProblemError,
  problems,
  type ServiceClient,
  type ServiceEnv,
} from '@docflow/kit/http';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import * as oidc from 'openid-client';
import type { AccountsReadModel } from './accounts-read-model';
import type { AuthFailureBrake } from './auth-failures';
import type { OidcProviderConfig } from './oidc-config';
import { personToCreate } from './oidc-person';
import { cookieSealer } from './oidc-sealed-cookie';
import { GATEWAY_PRINCIPAL } from './session-auth';
import { openSession, overHttps, requestIds, type SessionOpenDeps, signInClient } from './session-open';
import type { SignOut } from './sign-in-routes';

export interface OidcDeps extends SessionOpenDeps {
  providers: OidcProviderConfig[];
  identity: ServiceClient;
  accounts: AccountsReadModel;
  internalToken: string;
  brake: AuthFailureBrake;
  signOut: SignOut;
  log: Logger;
}

/** Where the routes lie: they take no credentials (a sign-in starts there; logout reads the cookie). */
export const OIDC_PATHS = '/api/auth/v1/oidc';
/** Where a browser lands after signing in or out, unless told otherwise: the web console. */
const HOME = '/console';
/** How long a started login may take at the provider. */
const LOGIN_TTL_MS = 10 * 60 * 1000;
const DISCOVERY_TIMEOUT_S = 10;
const REFUSED = 'the identity provider’s answer was refused: sign in again';

interface LoginState {
  provider: string;
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
  returnTo: string;
}
interface EndState {
  provider: string;
  idToken: string;
}

export function oidcRoutes(app: OpenAPIHono<ServiceEnv>, deps: OidcDeps): void {
  const identity = internalClient(deps.identity, deps.internalToken);
  const sealer = cookieSealer(deps.internalToken);
  const loginCookie = `${deps.options.cookieName}_oidc`;
  const endCookie = `${deps.options.cookieName}_oidc_end`;
  const byId = new Map(deps.providers.map((p) => [p.id, p]));

  /** The provider's metadata, read once (again after a failure). */
  const discovered = new Map<string, Promise<oidc.Configuration>>();
  function configurationOf(p: OidcProviderConfig): Promise<oidc.Configuration> {
    let config = discovered.get(p.id);
    if (!config) {
      const issuer = new URL(p.issuer);
      config = oidc.discovery(issuer, p.clientId, p.clientSecret, p.clientSecret ? undefined : oidc.None(), {
        timeout: DISCOVERY_TIMEOUT_S,
        // A provider on plain HTTP is for loopback tests and local runs only.
        ...(issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {}),
      });
      config.catch(() => discovered.delete(p.id));
      discovered.set(p.id, config);
    }
    return config.catch((err) => {
      deps.log.warn({ provider: p.id, err: String(err) }, 'identity provider metadata unavailable');
      throw problems.unavailable(`the identity provider ${p.id} cannot be reached now; retry shortly`);
    });
  }

  const providerNamed = (id: string | undefined) => {
    const p = id === undefined ? deps.providers[0] : byId.get(id);
    if (!p)
      throw problems.notFound(id === undefined ? 'no identity provider is configured' : `no provider ${id}`);
    return p;
  };
  const cookieOptions = (c: Context, path: string, maxAgeS: number) => ({
    path,
    httpOnly: true,
    sameSite: 'Lax' as const,
    secure: deps.options.secure === 'always' || overHttps(c),
    maxAge: maxAgeS,
  });

  app.openapi(oidcProvidersRoute, (c) =>
    c.json(
      deps.providers.map((p) => ({
        id: p.id,
        name: p.name ?? p.id,
        loginUrl: `${oidcLoginRoute.path}?provider=${p.id}`,
      })),
      200,
    ),
  );

  app.openapi(oidcLoginRoute, async (c) => {
    const query = c.req.valid('query');
    const p = providerNamed(query.provider);
    const config = await configurationOf(p);
    const login: LoginState = {
      provider: p.id,
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      verifier: oidc.randomPKCECodeVerifier(),
      redirectUri: p.redirectUri ?? new URL(oidcCallbackRoute.path, c.req.url).href,
      returnTo: query.returnTo ?? HOME,
    };
    const target = oidc.buildAuthorizationUrl(config, {
      redirect_uri: login.redirectUri,
      scope: p.scopes.join(' '),
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(login.verifier),
      code_challenge_method: 'S256',
      state: login.state,
      nonce: login.nonce,
    });
    setCookie(
      c,
      loginCookie,
      sealer.seal('login', login, LOGIN_TTL_MS),
      cookieOptions(c, oidcCallbackRoute.path, LOGIN_TTL_MS / 1000),
    );
    c.header('cache-control', 'no-store');
    return c.redirect(target.href, 302) as never;
  });

  /** The person's e-mail the provider vouches for in the ID token, or a 401. */
  function vouchedEmail(p: OidcProviderConfig, claims: oidc.IDToken | undefined): string {
    const value = claims?.[p.emailClaim];
    if (typeof value !== 'string' || value === '')
      throw problems.unauthorized(`the identity provider named no ${p.emailClaim}`, 'Cookie');
    if (p.emailClaim === 'email' && claims?.email_verified !== true)
      throw problems.unauthorized('the identity provider has not verified this e-mail address', 'Cookie');
    return value;
  }

  const requireProviders = () => {
    if (!deps.providers.length) throw problems.notFound('no identity provider is configured');
  };

  app.openapi(oidcCallbackRoute, async (c) => {
    requireProviders();
    await deps.brake.check(c);
    const login = sealer.open('login', getCookie(c, loginCookie)) as LoginState | undefined;
    deleteCookie(c, loginCookie, { path: oidcCallbackRoute.path });
    c.header('cache-control', 'no-store');
    const refuse = async (detail: string) => {
      await deps.brake.failed(c);
      return problems.unauthorized(detail, 'Cookie');
    };
    if (!login) throw await refuse('no sign-in was started here, or it took too long: sign in again');
    const p = providerNamed(login.provider);
    const config = await configurationOf(p);
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(
        config,
        new URL(c.req.url),
        {
          pkceCodeVerifier: login.verifier,
          expectedState: login.state,
          expectedNonce: login.nonce,
          idTokenExpected: true,
        },
        { redirect_uri: login.redirectUri },
      );
    } catch (err) {
      // The library's own refusals (a provider's error, a wrong state, nonce, issuer, audience or
      // signature, a code the provider will not redeem) are the caller's; anything else is the network.
      if (err instanceof oidc.ResponseBodyError || err instanceof oidc.AuthorizationResponseError) {
        deps.log.info({ provider: p.id, error: err.error }, 'identity provider refused the sign-in');
        throw await refuse(REFUSED);
      }
      if (err instanceof oidc.ClientError) {
        deps.log.info(
          // The library's own message names the check (e.g. the "aud" claim), never a value.
          {
            provider: p.id,
            check: err.code,
            reason: err.cause instanceof Error ? err.cause.message : err.message,
          },
          'identity provider answer refused',
        );
        throw await refuse(REFUSED);
      }
      deps.log.warn({ provider: p.id, err: String(err) }, 'identity provider unreachable');
      throw problems.unavailable(`the identity provider ${p.id} cannot be reached now; retry shortly`);
    }
    const claims = tokens.claims();
    let email: string;
    try {
      email = vouchedEmail(p, claims);
    } catch (err) {
      await deps.brake.failed(c);
      throw err;
    }
    let started: Awaited<ReturnType<typeof identity.call<typeof internalOidcSignInRoute>>>;
    try {
      started = await identity.call(
        internalOidcSignInRoute,
        {
          body: {
            email,
            ...(p.createPersons && claims ? { create: personToCreate(p, claims, email) } : {}),
            ...signInClient(c),
            expiresAt: new Date(Date.now() + deps.options.maxMs).toISOString(),
          },
        },
        { principal: GATEWAY_PRINCIPAL, ids: requestIds(c) },
      );
    } catch (err) {
      if (!(err instanceof ProblemError) || err.status !== 401) throw err;
      throw await refuse('no active docflow person has the e-mail address the identity provider vouched for');
    }
    // A person created just now: the session's next request needs them in this gateway's read model.
    if (!(await deps.accounts.waitForRevision(started.person._id_sys, 1, deps.waitMs)))
      deps.log.warn({ account: started.person._id_sys }, 'account read model lags behind');
    await openSession(c, deps, started);
    if (tokens.id_token)
      setCookie(
        c,
        endCookie,
        sealer.seal(
          'end',
          { provider: p.id, idToken: tokens.id_token } satisfies EndState,
          deps.options.maxMs,
        ),
        cookieOptions(c, oidcLogoutRoute.path, Math.floor(deps.options.maxMs / 1000)),
      );
    return c.redirect(login.returnTo, 302) as never;
  });

  app.openapi(oidcLogoutRoute, async (c) => {
    requireProviders();
    await deps.signOut(c);
    const end = sealer.open('end', getCookie(c, endCookie)) as EndState | undefined;
    deleteCookie(c, endCookie, { path: oidcLogoutRoute.path });
    const p = end && byId.get(end.provider);
    if (!end || !p) return c.redirect(HOME, 303) as never;
    const config = await configurationOf(p);
    if (!config.serverMetadata().end_session_endpoint) return c.redirect(HOME, 303) as never;
    const target = oidc.buildEndSessionUrl(config, {
      id_token_hint: end.idToken,
      post_logout_redirect_uri: p.postLogoutRedirectUri ?? new URL(HOME, c.req.url).href,
    });
    return c.redirect(target.href, 303) as never;
  });
}
