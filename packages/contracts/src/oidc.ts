/**
 * Single sign-on with OpenID Connect (DESIGN.md, "People"): the providers a client may offer, and the
 * body of identity's internal route that opens a session for a person the gateway's provider vouched
 * for. No token, code or secret of the provider is ever in an event or a body here.
 */
import { z } from '@hono/zod-openapi';
import { AccountCreate } from './accounts';
import { Timestamp } from './ids';
import { ClientText } from './sign-in';

/** A provider's id as configured (and as `provider` names it in the login URL). */
export const OidcProviderId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'lower-case letters, digits and -');

export const OidcProvider = z
  .object({
    id: OidcProviderId,
    /** What a sign-in button says: "Sign in with <name>". */
    name: z.string(),
    /** Where a browser goes to sign in with it (the login route, with `provider`). */
    loginUrl: z.string(),
  })
  .openapi('OidcProvider');
export type OidcProvider = z.infer<typeof OidcProvider>;

export const OidcLoginQuery = z.object({
  provider: OidcProviderId.optional().openapi({
    description: 'The provider; the first configured when absent.',
  }),
  returnTo: z
    .string()
    .max(2048)
    // A path of this site: not `//host` or `/\host`, and no space or control character (a browser drops
    // tabs and newlines from a URL, so `/<tab>/host` would become `//host`).
    .regex(/^\/(?![/\\])[\x21-\x7e]*$/, 'a path of this site')
    .optional()
    .openapi({
      description: 'Where the browser goes once signed in (a path of this site; `/console` when absent).',
    }),
});

/** Printable ASCII, as RFC 6749 (Appendix A) allows in these parameters; bounded so that even fully
 * percent-encoded they fit in the request line Node accepts. */
const vschar = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[\x20-\x7e]*$/, 'printable ASCII');

/** What the provider sends back to the callback (RFC 6749 §4.1.2; OpenID Connect Core §3.1.2.5-6). */
export const OidcCallbackQuery = z.object({
  code: vschar(2048).optional(),
  state: vschar(512).optional(),
  iss: vschar(256).optional(),
  session_state: vschar(256).optional(),
  error: vschar(64).optional(),
  error_description: vschar(256).optional(),
});

/** identity: `POST /internal/v1/oidc/sign-in` — the person the provider's verified claim names. */
export const InternalOidcSignInRequest = z.strictObject({
  /** The person's e-mail, as the provider vouched for it (verified, or the configured claim). */
  email: z.string().trim().min(1).max(254),
  /** When the provider may create persons: the person to create if none has this e-mail. */
  create: AccountCreate.pick({ name_first: true, name_last: true, roles: true }).optional(),
  from: ClientText,
  userAgent: ClientText,
  expiresAt: Timestamp,
});
