/** Events of the identity service's `account-<_id_sys>` streams (all schema version 1). */
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
  deputy: z.object({ id: z.string(), enabled: z.boolean() }).optional(),
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
  AccountActivationChanged: z.object({ active: z.boolean() }),
  RolesChanged: z.object({ roles: z.array(Role) }),
};

export type IdentityEvent = {
  [K in keyof typeof IdentityEvents]: { type: K; data: z.infer<(typeof IdentityEvents)[K]> };
}[keyof typeof IdentityEvents];

/** The one event of an `email-<sha256 of the address>` stream: who holds that e-mail address. */
export const EmailClaimed = z.object({ accountId: z.string() });

/** Events whose data must never leave the identity service's own store. */
export const PRIVATE_IDENTITY_EVENTS: ReadonlySet<string> = new Set(['PasswordChanged']);

/** Validates a stored or delivered identity event; throws on an unknown type or a bad payload. */
export function parseIdentityEvent(type: string, data: unknown): IdentityEvent {
  const schema = IdentityEvents[type as keyof typeof IdentityEvents];
  if (!schema) throw new Error(`unknown identity event type ${type}`);
  return { type, data: schema.parse(data) } as IdentityEvent;
}
