import { envFields } from '@docflow/kit';
import { z } from 'zod';

const FIVE_GIB = 5 * 1024 ** 3;

/** DOCFLOW_MAX_UPLOAD_BYTES: the largest file accepted, in bytes (default 5 GiB). */
export const FilesEnv = z.object({
  DOCFLOW_MAX_UPLOAD_BYTES: envFields.positiveInt.default(FIVE_GIB),
});
export type FilesEnv = z.infer<typeof FilesEnv>;
