/** Admin API of DESIGN.md: accounts of persons and service accounts. */
import { z } from '@hono/zod-openapi';
import { API_KEY_PATTERN } from './api-keys';
import { intParam, queryBool } from './documents';
import { UsrId } from './ids';
import { Meta, PersonFields } from './person';
import { ROLES, Role } from './roles';

/** The bootstrap service account `admin` (DESIGN.md, "Credentials"): a fixed id every start finds. */
export const ADMIN_ACCOUNT_ID = 'usr-00000000-0000-0000-0000-000000000001';

export const AccountKind = z.enum(['person', 'service']);

export const Email = z.string().trim().toLowerCase().max(254).pipe(z.email()).openapi({ format: 'email' });

export const AccountCreate = z
  .strictObject({
    kind: AccountKind,
    email: Email,
    name_first: PersonFields.name_first.min(1),
    name_last: PersonFields.name_last.min(1),
    roles: z.array(Role).max(ROLES.length).default([]),
    active: z.boolean().default(true),
  })
  .openapi('AccountCreate');
export type AccountCreate = z.infer<typeof AccountCreate>;

export const AccountPatch = z
  .strictObject({ active: z.boolean().optional(), roles: z.array(Role).max(ROLES.length).optional() })
  .refine((p) => p.active !== undefined || p.roles !== undefined, 'give active, roles or both')
  .openapi('AccountPatch', { minProperties: 1 });
export type AccountPatch = z.infer<typeof AccountPatch>;

export const Account = z
  .object({
    _meta: Meta,
    _id_sys: UsrId,
    kind: AccountKind,
    email: z.string(),
    name_first: z.string(),
    name_last: z.string(),
    roles: z.array(Role),
    active: z.boolean(),
  })
  .openapi('Account');
export type Account = z.infer<typeof Account>;

export const CreatedAccount = Account.extend({
  apiKey: z.string().regex(API_KEY_PATTERN).optional().openapi({
    description:
      "Only for a service account, and only in this answer: the key is stored as a hash. It names the account's id (`dfk_`, the id's 32 hex digits, `_`, 256 random bits).",
  }),
}).openapi('CreatedAccount');

export const AccountListQuery = z.object({
  first: intParam(0, 2147483646).default(0).openapi({ description: '0-based index of the first account.' }),
  pageSize: intParam(1, 100).default(10),
  kind: AccountKind.optional(),
  active: queryBool.optional().openapi({ type: 'string', enum: ['true', 'false'] }),
  order: z
    .enum(['oldest', 'newest'])
    .default('oldest')
    .openapi({ description: 'Oldest first (the default) or newest first, by creation.' }),
  email: Email.optional().openapi({
    description:
      'Only the account holding this exact address (case ignored), found through a keyed hash of the ' +
      'address, never a clear-text index; an erased account is not found by its old address.',
  }),
  name: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .openapi({
      description:
        'Only the accounts a word of whose name (first or last, case and accents ignored) starts with this, ' +
        'newest first; matched in memory against the decrypted names of the newest 2,000 accounts (no index ' +
        'holds a name), `svc-total-count-relation: gte` when older ones were not read. Not with `email`.',
    }),
});
export type AccountListQuery = z.infer<typeof AccountListQuery>;
