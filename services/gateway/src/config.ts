/** What the edge takes from the environment: request-body bounds, CORS and the failed-login brake. */
import { envFields } from '@docflow/kit';
import { z } from 'zod';

const MIB = 1024 * 1024;

export const EdgeEnv = z.object({
  /** The largest JSON body of a document or form request (413 beyond); account bodies get less. */
  DOCFLOW_MAX_JSON_BYTES: envFields.positiveInt.default(MIB),
  /** Origins allowed to call the API from a browser (comma-separated, `*` for any); empty: CORS off. */
  DOCFLOW_CORS_ORIGINS: envFields.csv.default([]),
  /** Failed authentications one client address may make per minute before 429; 0 turns the brake off. */
  DOCFLOW_AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(0).default(30),
});
export type EdgeEnv = z.infer<typeof EdgeEnv>;

/** The edge settings, as the gateway app takes them. */
export interface EdgeOptions {
  maxJsonBytes: number;
  corsOrigins: string[];
  authFailuresPerMinute: number;
}

export function edgeOptions(env: EdgeEnv): EdgeOptions {
  return {
    maxJsonBytes: env.DOCFLOW_MAX_JSON_BYTES,
    corsOrigins: env.DOCFLOW_CORS_ORIGINS,
    authFailuresPerMinute: env.DOCFLOW_AUTH_FAILURES_PER_MINUTE,
  };
}
