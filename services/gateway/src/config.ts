/**
 * What the edge takes from the environment: request-body bounds, CORS, the failed-login brake and the
 * sessions of password sign-in.
 */
import { envFields } from '@docflow/kit';
import { z } from 'zod';
import { type OidcProviderConfig, OidcProvidersEnv } from './oidc-config';

const MIB = 1024 * 1024;

export const EdgeEnv = z.object({
  /** The largest JSON body of a document or form request (413 beyond); account bodies get less. */
  DOCFLOW_MAX_JSON_BYTES: envFields.positiveInt.default(MIB),
  /** Origins allowed to call the API from a browser (comma-separated, `*` for any); empty: CORS off. */
  DOCFLOW_CORS_ORIGINS: envFields.csv.default([]),
  /** Failed authentications one client address may make per minute before 429; 0 turns the brake off. */
  DOCFLOW_AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(0).default(30),
  /** The name of the session cookie a password sign-in sets. */
  DOCFLOW_SESSION_COOKIE: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - only')
    .default('docflow_session'),
  /** A session unused this long (seconds) has ended. */
  DOCFLOW_SESSION_IDLE_SECONDS: envFields.positiveInt.default(30 * 60),
  /** A session ends this long (seconds) after its sign-in, however much it is used. */
  DOCFLOW_SESSION_MAX_SECONDS: envFields.positiveInt.default(12 * 60 * 60),
  /**
   * `auto`: the cookie is `Secure` when the sign-in came over HTTPS (the URL, or `X-Forwarded-Proto`
   * from a proxy that ends TLS); `always`: every time.
   */
  DOCFLOW_SESSION_COOKIE_SECURE: z.enum(['auto', 'always']).default('auto'),
  /** The OpenID Connect providers a person may sign in with (a JSON array; see oidc-config.ts). */
  DOCFLOW_OIDC_PROVIDERS: OidcProvidersEnv,
});
export type EdgeEnv = z.infer<typeof EdgeEnv>;

/** The edge settings, as the gateway app takes them. */
export interface EdgeOptions {
  maxJsonBytes: number;
  corsOrigins: string[];
  authFailuresPerMinute: number;
  sessions: SessionOptions;
  oidcProviders: OidcProviderConfig[];
}

export interface SessionOptions {
  cookieName: string;
  idleMs: number;
  maxMs: number;
  secure: 'auto' | 'always';
}

export function edgeOptions(env: EdgeEnv): EdgeOptions {
  return {
    maxJsonBytes: env.DOCFLOW_MAX_JSON_BYTES,
    corsOrigins: env.DOCFLOW_CORS_ORIGINS,
    authFailuresPerMinute: env.DOCFLOW_AUTH_FAILURES_PER_MINUTE,
    sessions: {
      cookieName: env.DOCFLOW_SESSION_COOKIE,
      idleMs: env.DOCFLOW_SESSION_IDLE_SECONDS * 1000,
      maxMs: env.DOCFLOW_SESSION_MAX_SECONDS * 1000,
      secure: env.DOCFLOW_SESSION_COOKIE_SECURE,
    },
    oidcProviders: env.DOCFLOW_OIDC_PROVIDERS,
  };
}
