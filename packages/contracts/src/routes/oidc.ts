/**
 * Single sign-on with OpenID Connect (authorization code with PKCE): the public routes a browser
 * follows, and identity's internal route that opens the session. With no provider configured the
 * public routes answer 404.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { internalRoute } from '../internal-route';
import { InternalOidcSignInRequest, OidcCallbackQuery, OidcLoginQuery, OidcProvider } from '../oidc';
import { problemsFor } from '../responses';
import { InternalSignInResponse } from '../sign-in';

const TAGS = ['sign-in'];
const redirect = (description: string) => ({
  description,
  headers: { location: { schema: { type: 'string' as const } } },
});

export const oidcProvidersRoute = createRoute({
  operationId: 'listOidcProviders',
  method: 'get',
  path: '/api/auth/v1/providers',
  tags: TAGS,
  security: [],
  summary: 'The identity providers a person may sign in with',
  description: 'Empty when none is configured (password sign-in only).',
  responses: {
    200: {
      description: 'The providers.',
      content: { 'application/json': { schema: z.array(OidcProvider) } },
    },
    ...problemsFor(403, 429, 503),
  },
});

export const oidcLoginRoute = createRoute({
  operationId: 'oidcLogin',
  method: 'get',
  path: '/api/auth/v1/oidc/login',
  tags: TAGS,
  security: [],
  summary: 'Start a sign-in with an identity provider',
  description:
    'Redirects the browser to the provider (authorization code with PKCE S256, a fresh `state` and ' +
    '`nonce`). What the callback needs to check the answer travels in a short-lived, encrypted, HttpOnly ' +
    'cookie scoped to the callback. 404 when no such provider is configured.',
  request: { query: OidcLoginQuery },
  responses: {
    302: redirect('To the provider’s authorization endpoint.'),
    ...problemsFor(400, 403, 404, 429, 503),
  },
});

export const oidcCallbackRoute = createRoute({
  operationId: 'oidcCallback',
  method: 'get',
  path: '/api/auth/v1/oidc/callback',
  tags: TAGS,
  security: [],
  summary: 'The provider’s answer: check it and start a session',
  description:
    'Checks the `state` against the login’s cookie, redeems the code with the PKCE verifier, and checks ' +
    'the ID token (signature, issuer, audience, nonce, expiry). The person is the one whose e-mail the ' +
    'provider vouches for (`email` with `email_verified`, or the configured claim); they must exist and ' +
    'be active. Then the session starts as a password sign-in’s does (the same cookie) and the browser ' +
    'is sent to the login’s `returnTo`. Every refusal is 401 (recorded as a failed sign-in when a ' +
    'person was named).',
  request: { query: OidcCallbackQuery },
  responses: {
    302: redirect('Signed in: to the `returnTo` of the login.'),
    ...problemsFor(400, 401, 403, 404, 429, 503),
  },
});

export const oidcLogoutRoute = createRoute({
  operationId: 'oidcLogout',
  method: 'post',
  path: '/api/auth/v1/oidc/logout',
  tags: TAGS,
  security: [],
  summary: 'Sign out here and at the identity provider',
  description:
    'Ends the session of the cookie (as `POST /api/auth/v1/logout`) and, when it came from a provider, ' +
    'sends the browser to the provider’s end-session endpoint (RP-initiated logout) with the ID token ' +
    'as hint; otherwise to `/console`. 404 when no provider is configured.',
  responses: {
    303: redirect('To the provider’s end-session endpoint, or to `/console`.'),
    ...problemsFor(403, 404, 429, 503),
  },
});

/** identity: opens a session for the person with this e-mail (401 when there is no active person). */
export const internalOidcSignInRoute = internalRoute({
  method: 'post',
  path: '/internal/v1/oidc/sign-in',
  body: InternalOidcSignInRequest,
  output: InternalSignInResponse,
  problems: [400, 401, 415, 503],
});
