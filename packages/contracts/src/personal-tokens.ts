/**
 * Personal access tokens (DESIGN.md, "People"): a person's own credential for a CLI or a script, made
 * while signed in, shown once, acting as the person with the person's own roles (never with
 * `svc-run-as`). A token has the API keys' shape and road (api-keys.ts: `dfk_`, the person's id, 256
 * random bits; kept only as its SHA-256, found by that hash). Its events are on the person's
 * `account-<_id_sys>` stream, so a deactivation or erasure, later on the same stream, ends every one.
 */
import { z } from '@hono/zod-openapi';
import { Hex24Id, Timestamp } from './ids';

/** How many live tokens a person may hold. */
export const PERSONAL_TOKENS_MAX = 50;
const NAME_MAX = 100;

export const PersonalTokenId = Hex24Id;

export const PersonalTokenCreate = z
  .strictObject({
    name: z.string().trim().min(1).max(NAME_MAX).openapi({ example: 'laptop CLI' }),
    expiresAt: z.iso.datetime({ offset: true }).optional().openapi({
      description: 'When the token stops working (in the future); without it, it works until revoked.',
    }),
  })
  .openapi('PersonalTokenCreate');
export type PersonalTokenCreate = z.infer<typeof PersonalTokenCreate>;

export const PersonalToken = z
  .object({
    id: PersonalTokenId,
    name: z.string(),
    created: Timestamp,
    expires: Timestamp.nullable(),
  })
  .openapi('PersonalToken');
export type PersonalToken = z.infer<typeof PersonalToken>;

export const CreatedPersonalToken = PersonalToken.extend({
  token: z.string().openapi({
    description: 'The token, shown this once: send it as `Authorization: Bearer <token>`.',
  }),
}).openapi('CreatedPersonalToken');
export type CreatedPersonalToken = z.infer<typeof CreatedPersonalToken>;

/** identity: `POST /internal/v1/accounts/{id}/tokens`. */
export const InternalIssueTokenRequest = z.strictObject({
  name: z.string().min(1).max(NAME_MAX),
  expiresAt: Timestamp.nullable(),
});

/** What a token command answers: the revision of the person's stream the bus carries it at. */
const Published = z.object({ publishedRev: z.number().int().min(1) });

export const InternalIssueTokenResponse = Published.extend({ token: CreatedPersonalToken });
export const InternalRevokeTokenResponse = Published;
