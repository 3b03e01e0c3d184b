import { envFields } from '@docflow/kit';
import { z } from 'zod';

const FIVE_GIB = 5 * 1024 ** 3;

/**
 * DOCFLOW_MAX_UPLOAD_BYTES: the largest file accepted, in bytes (default 5 GiB).
 * DOCFLOW_UPLOAD_GRACE_SECONDS: how long after its upload ended a file no document holds is kept
 * before the orphan sweeper discards it (default an hour; docs/decisions.md says why that is safe).
 * DOCFLOW_ORPHAN_SWEEP_SECONDS: how often the sweeper runs (default every 10 minutes).
 */
export const FilesEnv = z.object({
  DOCFLOW_MAX_UPLOAD_BYTES: envFields.positiveInt.default(FIVE_GIB),
  DOCFLOW_UPLOAD_GRACE_SECONDS: envFields.positiveInt.default(3600),
  DOCFLOW_ORPHAN_SWEEP_SECONDS: envFields.positiveInt.default(600),
});
export type FilesEnv = z.infer<typeof FilesEnv>;
