/**
 * Personal access tokens (personal-tokens.ts): the person's own routes, an administrator's, and
 * identity's internal ones that issue and revoke a token.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { UsrId } from '../ids';
import { internalRoute } from '../internal-route';
import {
  CreatedPersonalToken,
  InternalIssueTokenRequest,
  InternalIssueTokenResponse,
  InternalRevokeTokenResponse,
  PersonalToken,
  PersonalTokenCreate,
  PersonalTokenId,
} from '../personal-tokens';
import { problemsFor } from '../responses';

const TAGS = ['sign-in'];
const TOKEN_NOTE =
  'A token acts as its person with the person\u2019s own roles, sent as `Authorization: Bearer <token>`; ' +
  '`svc-run-as` is refused with it (400). Deactivating or erasing the person ends every token of theirs.';

export const createPersonalTokenRoute = createRoute({
  operationId: 'createPersonalToken',
  method: 'post',
  path: '/api/auth/v1/tokens',
  tags: TAGS,
  summary: 'Make a personal access token for the signed-in person',
  description:
    'Needs a person\u2019s session (the cookie of `POST /api/auth/v1/login`): an API key, a token or ' +
    `\`svc-run-as\` cannot make one (403). The token is in this answer only. ${TOKEN_NOTE}`,
  request: {
    body: { required: true, content: { 'application/json': { schema: PersonalTokenCreate } } },
  },
  responses: {
    201: {
      description: 'Made; the token is shown this once.',
      content: { 'application/json': { schema: CreatedPersonalToken } },
    },
    ...problemsFor(400, 401, 403, 409, 413, 415, 429, 503),
  },
});

export const listPersonalTokensRoute = createRoute({
  operationId: 'listPersonalTokens',
  method: 'get',
  path: '/api/auth/v1/tokens',
  tags: TAGS,
  summary: 'The live personal access tokens of the person, newest first (never the token itself)',
  description: 'Answers 403 to a service account or a `svc-run-as` request.',
  responses: {
    200: { description: 'The tokens.', content: { 'application/json': { schema: z.array(PersonalToken) } } },
    ...problemsFor(401, 403, 429, 503),
  },
});

export const revokePersonalTokenRoute = createRoute({
  operationId: 'revokePersonalToken',
  method: 'delete',
  path: '/api/auth/v1/tokens/{id}',
  tags: TAGS,
  summary: 'Revoke one of the person\u2019s personal access tokens',
  request: { params: z.object({ id: PersonalTokenId }) },
  responses: { 204: { description: 'Revoked.' }, ...problemsFor(400, 401, 403, 404, 429, 503) },
});

export const listAccountTokensRoute = createRoute({
  operationId: 'listAccountTokens',
  method: 'get',
  path: '/api/admin/v1/accounts/{id}/tokens',
  tags: ['admin'],
  summary: 'The live personal access tokens of a person, newest first (never the token itself)',
  description: 'Needs role `svcAdminSysRW`.',
  request: { params: z.object({ id: UsrId }) },
  responses: {
    200: { description: 'The tokens.', content: { 'application/json': { schema: z.array(PersonalToken) } } },
    ...problemsFor(400, 401, 403, 429, 503),
  },
});

export const revokeAccountTokenRoute = createRoute({
  operationId: 'revokeAccountToken',
  method: 'delete',
  path: '/api/admin/v1/accounts/{id}/tokens/{tokenId}',
  tags: ['admin'],
  summary: 'Revoke a personal access token of a person',
  description: 'Needs role `svcAdminSysRW`.',
  request: { params: z.object({ id: UsrId, tokenId: PersonalTokenId }) },
  responses: { 204: { description: 'Revoked.' }, ...problemsFor(400, 401, 403, 404, 429, 503) },
});

/** identity: issues a token to an active person (404 no such person, 409 too many tokens). */
export const internalIssueTokenRoute = internalRoute({
  method: 'post',
  path: '/internal/v1/accounts/{id}/tokens',
  params: z.object({ id: UsrId }),
  body: InternalIssueTokenRequest,
  output: InternalIssueTokenResponse,
  status: 201,
  problems: [400, 401, 404, 409, 415, 503],
});

/** identity: revokes a token (404 when the person has no such live token). */
export const internalRevokeTokenRoute = internalRoute({
  method: 'post',
  path: '/internal/v1/accounts/{id}/tokens/{tokenId}/revoke',
  params: z.object({ id: UsrId, tokenId: PersonalTokenId }),
  output: InternalRevokeTokenResponse,
  problems: [400, 401, 404, 503],
});
