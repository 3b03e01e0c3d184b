/**
 * The identity providers a person may sign in with (OpenID Connect), from `DOCFLOW_OIDC_PROVIDERS`: a
 * JSON array, empty (the default) when sign-in is by password only. See the README, "Single sign-on".
 */
import { OidcProviderId, Role } from '@docflow/contracts';
import { z } from 'zod';

export const OidcProviderConfig = z.strictObject({
  /** Names the provider in the login URL (`?provider=`). */
  id: OidcProviderId,
  /** What the sign-in button says ("Sign in with <name>"); the id when absent. */
  name: z.string().min(1).max(64).optional(),
  /** The issuer: its `/.well-known/openid-configuration` is read on the first sign-in. */
  issuer: z.string().url(),
  clientId: z.string().min(1),
  /** A confidential client's secret; none for a public client (PKCE alone). */
  clientSecret: z.string().min(1).optional(),
  scopes: z.array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/)).default(['openid', 'email', 'profile']),
  /**
   * The ID token claim that holds the person's e-mail in docflow. `email` (the default) counts only
   * with `email_verified: true`; another claim is trusted as the provider sends it.
   */
  emailClaim: z.string().min(1).default('email'),
  /**
   * The callback URL registered at the provider, when it is not this gateway's own URL as the browser
   * sees it (behind a proxy that rewrites the host).
   */
  redirectUri: z.string().url().optional(),
  /** Where the provider sends the browser after its logout; this site's `/console` when absent. */
  postLogoutRedirectUri: z.string().url().optional(),
  /**
   * Whether a person the provider vouches for and docflow does not know is created at the first
   * sign-in (with the token's names and the roles `roleMap` gives); otherwise refused.
   */
  createPersons: z.boolean().default(false),
  /** The claim listing the user's groups or roles at the provider (an array of strings). */
  rolesClaim: z.string().min(1).default('groups'),
  /** Provider group or role → the docflow roles a person created at the first sign-in gets. */
  roleMap: z.record(z.string(), z.array(Role)).default({}),
});
export type OidcProviderConfig = z.infer<typeof OidcProviderConfig>;

export const OidcProvidersEnv = z
  .string()
  .default('[]')
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'not JSON' });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .array(OidcProviderConfig)
      .refine((list) => new Set(list.map((p) => p.id)).size === list.length, 'two providers share an id'),
  );
