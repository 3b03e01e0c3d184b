import { envFields } from '@docflow/kit';
import { z } from 'zod';

const FIVE_GIB = 5 * 1024 ** 3;

/**
 * DOCFLOW_MAX_CREATE_BYTES: the largest create request, every file together, in bytes (default 5 GiB);
 * with DOCFLOW_MAX_UPLOAD_BYTES (one file) it bounds what one request can put on disk.
 */
export const DocumentEnv = z.object({
  DOCFLOW_MAX_CREATE_BYTES: envFields.positiveInt.default(FIVE_GIB),
  /** How often an audit checkpoint (Merkle root of every document's head hash) is taken, in ms; 0: never. */
  DOCFLOW_AUDIT_CHECKPOINT_MS: z.coerce.number().int().min(0).default(60_000),
});
export type DocumentEnv = z.infer<typeof DocumentEnv>;
