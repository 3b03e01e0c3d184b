/** Admin API (extension, DESIGN.md): accounts. Needs role `svcAdminSysRW`. */
import { createRoute, z } from '@hono/zod-openapi';
import { Account, AccountCreate, AccountListQuery, AccountPatch, CreatedAccount } from '../accounts';
import { UsrId } from '../ids';
import { problemResponses, problemsFor } from '../responses';

/** Where an account's id leads (OpenAPI links: a client's, and the fuzzer's stateful phase, next steps). */
const accountLinks = {
  GetAccount: { operationId: 'getAccount', parameters: { id: '$response.body#/_id_sys' } },
  PatchAccount: { operationId: 'patchAccount', parameters: { id: '$response.body#/_id_sys' } },
  GetPerson: { operationId: 'getPersonV2', parameters: { id: '$response.body#/_id_sys' } },
  UpdatePerson: { operationId: 'updatePersonV2', requestBody: { _id_sys: '$response.body#/_id_sys' } },
};

export const createAccountRoute = createRoute({
  operationId: 'createAccount',
  method: 'post',
  path: '/api/admin/v1/accounts',
  tags: ['admin'],
  summary: 'Create a person or a service account',
  description: 'A service account\u2019s API key is returned once, in this answer; only its hash is kept.',
  request: { body: { required: true, content: { 'application/json': { schema: AccountCreate } } } },
  responses: {
    201: {
      description: 'Created.',
      content: { 'application/json': { schema: CreatedAccount } },
      links: accountLinks,
    },
    ...problemsFor(400, 401, 403, 409, 413, 415, 429, 503),
  },
});

export const listAccountsRoute = createRoute({
  operationId: 'listAccounts',
  method: 'get',
  path: '/api/admin/v1/accounts',
  tags: ['admin'],
  summary:
    'List accounts (persons and service accounts), oldest or newest first, or find them by e-mail or name',
  description:
    'Each account as `GET /api/admin/v1/accounts/{id}` shows it (an erased one with its personal ' +
    'fields as `"[erased]"`). An account created or changed before the request is listed as it is now.',
  request: { query: AccountListQuery },
  responses: {
    200: {
      description: 'The page of accounts; `svc-total-count` is the number matching before paging.',
      headers: {
        'svc-total-count': { schema: { type: 'integer' } },
        'svc-total-count-relation': {
          schema: { type: 'string', enum: ['eq', 'gte'] },
          description: '`gte` when a `name` lookup did not read the older accounts.',
        },
      },
      content: { 'application/json': { schema: z.array(Account) } },
    },
    ...problemsFor(400, 401, 403, 429, 503),
  },
});

export const patchAccountRoute = createRoute({
  operationId: 'patchAccount',
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
    200: {
      description: 'The account.',
      content: { 'application/json': { schema: Account } },
      links: { GetAccount: accountLinks.GetAccount },
    },
    ...problemsFor(400, 401, 403, 404, 413, 415, 429, 503),
    409: {
      ...problemResponses[409],
      description:
        'The change would deactivate the bootstrap account `admin` or take a role from it; or the account was erased; or a concurrent write won.',
    },
  },
});

export const getAccountRoute = createRoute({
  operationId: 'getAccount',
  method: 'get',
  path: '/api/admin/v1/accounts/{id}',
  tags: ['admin'],
  summary: 'Read an account (persons and service accounts)',
  request: { params: z.object({ id: UsrId }) },
  responses: {
    200: {
      description: 'The account.',
      content: { 'application/json': { schema: Account } },
      links: { PatchAccount: accountLinks.PatchAccount, GetPerson: accountLinks.GetPerson },
    },
    ...problemsFor(400, 401, 403, 404, 429, 503),
  },
});

export const eraseAccountRoute = createRoute({
  operationId: 'eraseAccount',
  method: 'post',
  path: '/api/admin/v1/accounts/{id}/erase',
  tags: ['admin'],
  summary: 'Erase the personal data of an account (crypto-shredding)',
  description:
    'Deletes the key that seals the account\u2019s personal data (e-mail, names, phones, unit, password ' +
    'hash) in every event, wherever it was copied; deactivates the account and frees its e-mail. ' +
    'Afterwards its personal fields read as `"[erased]"`; its `usr-` id stays in the history. The ' +
    'erasure is itself an event (who and when). Erasing an erased account changes nothing (200). The ' +
    'bootstrap account `admin` cannot be erased (409).',
  request: { params: z.object({ id: UsrId }) },
  responses: {
    200: {
      description: 'The erased account.',
      content: { 'application/json': { schema: Account } },
      links: { GetAccount: accountLinks.GetAccount },
    },
    ...problemsFor(400, 401, 403, 404, 413, 429, 503),
    409: {
      ...problemResponses[409],
      description: 'The account is the bootstrap account `admin`; or a concurrent write won.',
    },
  },
});
