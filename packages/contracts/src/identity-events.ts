/**
 * Events of the identity service's `account-<_id_sys>` streams (all schema version 1).
 *
 * `IdentityEvents` is their clear form, which exists only in the identity service's memory. What is
 * stored and published is `StoredIdentityEvents`: the personal data (e-mail, names, phones, unit,
 * password hash) sealed with the person's own key (`sealed`), so deleting that key erases it everywhere
 * the event was copied (crypto-shredding, docs/decisions.md). Events written before that carry the
 * fields in clear, and stay readable.
 */
import { z } from '@hono/zod-openapi';
import { AccountKind } from './accounts';
import { Role } from './roles';

const personChanges = z.strictObject({
  name_first: z.string().optional(),
  name_last: z.string().optional(),
  name_mid: z.string().optional(),
  phone_office: z.string().optional(),
  phone_mobile: z.string().optional(),
  unit: z.string().optional(),
  /** `from`/`to`: an absence (issue 36) — tasks arriving in [from, to) go to the deputy. */
  deputy: z
    .object({ id: z.string(), enabled: z.boolean(), from: z.string().optional(), to: z.string().optional() })
    .optional(),
});

export const IdentityEvents = {
  AccountCreated: z.object({
    id: z.string(),
    kind: AccountKind,
    email: z.string(),
    name_first: z.string(),
    name_last: z.string(),
    roles: z.array(Role),
    active: z.boolean(),
  }),
  /** Only the SHA-256 of the key: keys are random 256-bit values, so a fast hash is safe. */
  ApiKeyIssued: z.object({ keyHash: z.string().regex(/^[0-9a-f]{64}$/) }),
  PersonUpdated: z.object({ changes: personChanges }),
  /** A scrypt hash with its salt; never the password. Kept off the bus (see relay). */
  PasswordChanged: z.object({ pwdHash: z.string().startsWith('scrypt$') }),
  /** An argon2id hash (PHC string, with its salt and parameters); never the password. Kept off the bus. */
  PasswordSet: z.object({ pwdHash: z.string().startsWith('$argon2id$') }),
  AccountActivationChanged: z.object({ active: z.boolean() }),
  RolesChanged: z.object({ roles: z.array(Role) }),
  /** The person's key was deleted: their personal data reads as erased wherever it was copied. */
  AccountErased: z.object({}),
  /**
   * A personal access token (personal-tokens.ts): only its SHA-256, as ApiKeyIssued. A deactivation or
   * erasure later on the stream ends it, as PersonalTokenRevoked does.
   */
  PersonalTokenIssued: z.object({
    tokenId: z.string().regex(/^[0-9a-f]{24}$/),
    name: z.string(),
    keyHash: z.string().regex(/^[0-9a-f]{64}$/),
    expiresAt: z.string().nullable(),
  }),
  PersonalTokenRevoked: z.object({ tokenId: z.string().regex(/^[0-9a-f]{24}$/) }),
};

export type IdentityEvent = {
  [K in keyof typeof IdentityEvents]: { type: K; data: z.infer<(typeof IdentityEvents)[K]> };
}[keyof typeof IdentityEvents];

const base64url = z.string().regex(/^[A-Za-z0-9_-]*$/);

/** Personal data encrypted with AES-256-GCM under the key of account `kid` (also the associated data). */
export const SealedData = z.strictObject({
  kid: z.string(),
  iv: base64url,
  tag: base64url,
  ct: base64url,
});
export type SealedData = z.infer<typeof SealedData>;

/** The person's fields a `PersonUpdated` may change (besides the deputy). */
export const PERSON_UPDATE_FIELDS = [
  'name_first',
  'name_last',
  'name_mid',
  'phone_office',
  'phone_mobile',
  'unit',
] as const;

/** Fields of an identity event that are personal data: stored only inside `sealed`. */
export const PERSONAL_FIELDS = ['email', ...PERSON_UPDATE_FIELDS, 'pwdHash'] as const;

const sealed = SealedData.optional();

export const StoredIdentityEvents = {
  AccountCreated: IdentityEvents.AccountCreated.partial({
    email: true,
    name_first: true,
    name_last: true,
  }).extend({ sealed }),
  ApiKeyIssued: IdentityEvents.ApiKeyIssued,
  PersonUpdated: IdentityEvents.PersonUpdated.extend({ sealed }),
  PasswordChanged: IdentityEvents.PasswordChanged.partial().extend({ sealed }),
  PasswordSet: IdentityEvents.PasswordSet.partial().extend({ sealed }),
  AccountActivationChanged: IdentityEvents.AccountActivationChanged,
  RolesChanged: IdentityEvents.RolesChanged,
  AccountErased: IdentityEvents.AccountErased,
  PersonalTokenIssued: IdentityEvents.PersonalTokenIssued,
  PersonalTokenRevoked: IdentityEvents.PersonalTokenRevoked,
};

export type StoredIdentityEvent = {
  [K in keyof typeof StoredIdentityEvents]: {
    type: K;
    data: z.infer<(typeof StoredIdentityEvents)[K]>;
  };
}[keyof typeof StoredIdentityEvents];

/** The one event of an `email-<sha256 of the address>` stream: who holds that e-mail address. */
export const EmailClaimed = z.object({ accountId: z.string() });

/** Events whose data must never leave the identity service's own store. */
export const PRIVATE_IDENTITY_EVENTS: ReadonlySet<string> = new Set(['PasswordChanged', 'PasswordSet']);

/** Validates a stored or delivered identity event; throws on an unknown type or a bad payload. */
export function parseStoredIdentityEvent(type: string, data: unknown): StoredIdentityEvent {
  const schema = StoredIdentityEvents[type as keyof typeof StoredIdentityEvents];
  if (!schema) throw new Error(`unknown identity event type ${type}`);
  return { type, data: schema.parse(data) } as StoredIdentityEvent;
}
