import { z } from 'zod';

/** DOCFLOW_ADMIN_KEY: keys the bootstrap account `admin` at every start; empty means unset. */
export const AdminKeyEnv = z.object({
  DOCFLOW_ADMIN_KEY: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().min(24, 'must be at least 24 characters').optional(),
  ),
});
