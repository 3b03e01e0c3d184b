/** The Person resource of the contract (identical in /api/v1 and /api/v2). */
import { z } from '@hono/zod-openapi';
import { Timestamp, UsrId } from './ids';

export const Meta = z
  .object({ _created: Timestamp, _lastmodified: Timestamp, _rev: z.number().int().min(1) })
  .openapi('Meta');

/** `enabled` is carried as a string holding a boolean; input also accepts a JSON boolean. */
export const DeputyEnabled = z
  .union([z.enum(['true', 'false']), z.boolean()])
  .transform((v) => v === true || v === 'true')
  .openapi({ type: 'string', enum: ['true', 'false'] });

/**
 * An absence (issue 36, docs/decisions.md "Absences"): from `from` up to `to` (exclusive) the person is
 * away, and tasks that arrive for them then go to their deputy, on their behalf. Both or neither.
 */
export const AbsencePeriod = z.strictObject({ from: Timestamp.optional(), to: Timestamp.optional() });
export const periodInOrder = (p: { from?: string; to?: string }) =>
  (p.from === undefined) === (p.to === undefined) && (p.from === undefined || p.from < (p.to ?? ''));
export const periodMessage = { message: 'from and to go together, from before to', path: ['to'] };

const shortText = (max: number) => z.string().trim().max(max);
const phone = z
  .string()
  .trim()
  .max(40)
  .regex(/^[0-9+()\-./ x]*$/, 'may hold digits, spaces and + ( ) - . / x only');

export const PersonFields = {
  name_first: shortText(100),
  name_last: shortText(100),
  name_mid: shortText(100),
  phone_office: phone,
  phone_mobile: phone,
  unit: shortText(200),
};

export const Person = z
  .object({
    _meta: Meta,
    _id_sys: UsrId,
    email: z.string(),
    name_first: z.string(),
    name_last: z.string(),
    name_mid: z.string(),
    phone_office: z.string(),
    phone_mobile: z.string(),
    unit: z.string(),
    deputy: z.object({
      id: z.string().openapi({ description: 'System id of the deputy, empty when none is set.' }),
      enabled: z.enum(['true', 'false']),
      from: Timestamp.optional().openapi({
        description: 'Start of the absence, when one is set (extension).',
      }),
      to: Timestamp.optional().openapi({ description: 'End (exclusive) of the absence (extension).' }),
    }),
  })
  .openapi('Person');
export type Person = z.infer<typeof Person>;

export const PersonUpdate = z
  .strictObject({
    _id_sys: UsrId,
    pwd: z.string().min(8).max(256).optional().openapi({ format: 'password', writeOnly: true }),
    name_first: PersonFields.name_first.min(1).optional(),
    name_last: PersonFields.name_last.min(1).optional(),
    name_mid: PersonFields.name_mid.optional(),
    phone_office: PersonFields.phone_office.optional(),
    phone_mobile: PersonFields.phone_mobile.optional(),
    unit: PersonFields.unit.optional(),
    deputy: z
      .strictObject({
        id: z
          .union([UsrId, z.literal('')])
          .openapi({ description: 'Deputy system id; empty string removes it.' }),
        enabled: DeputyEnabled,
        ...AbsencePeriod.shape,
      })
      .refine(periodInOrder, periodMessage)
      .optional(),
  })
  .openapi('PersonUpdate', {
    description:
      'Changes only the fields it is given. `pwd` is stored as an argon2id hash and never returned; the person signs in with it (`POST /api/auth/v1/login`).',
  });
export type PersonUpdate = z.infer<typeof PersonUpdate>;
