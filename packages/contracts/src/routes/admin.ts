/** Admin API (extension, DESIGN.md): accounts. Needs role `svcAdminSysRW`. */
import { createRoute, z } from '@hono/zod-openapi';
import { Account, AccountCreate, AccountPatch, CreatedAccount } from '../accounts';
import { UsrId } from '../ids';
import { problemResponses, problemsFor } from '../responses';

export const createAccountRoute = createRoute({
  method: 'post',
  path: '/api/admin/v1/accounts',
  tags: ['admin'],
  summary: 'Create a person or a service account',
  description: 'A service account\u2019s API key is returned once, in this answer; only its hash is kept.',
  request: { body: { required: true, content: { 'application/json': { schema: AccountCreate } } } },
  responses: {
    201: { description: 'Created.', content: { 'application/json': { schema: CreatedAccount } } },
    ...problemsFor(400, 401, 403, 409, 415, 503),
  },
});

export const patchAccountRoute = createRoute({
  method: 'patch',
  path: '/api/admin/v1/accounts/{id}',
  tags: ['admin'],
  summary: 'Activate, deactivate or change the roles of an account',
  description:
    'The bootstrap account `admin` stays active and keeps every role, so an administrator always ' +
    'remains: a change that would deactivate it or take a role from it is 409.',
  request: {
    params: z.object({ id: UsrId }),
    body: { required: true, content: { 'application/json': { schema: AccountPatch } } },
  },
  responses: {
    200: { description: 'The account.', content: { 'application/json': { schema: Account } } },
    ...problemsFor(400, 401, 403, 404, 415, 503),
    409: {
      ...problemResponses[409],
      description:
        'The change would deactivate the bootstrap account `admin` or take a role from it; or a concurrent write won.',
    },
  },
});

export const getAccountRoute = createRoute({
  method: 'get',
  path: '/api/admin/v1/accounts/{id}',
  tags: ['admin'],
  summary: 'Read an account (persons and service accounts)',
  request: { params: z.object({ id: UsrId }) },
  responses: {
    200: { description: 'The account.', content: { 'application/json': { schema: Account } } },
    ...problemsFor(400, 401, 403, 404, 503),
  },
});
