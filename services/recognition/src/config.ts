import { availableParallelism } from 'node:os';
import { envFields } from '@docflow/kit';
import { z } from 'zod';

/** DOCFLOW_OCR_WORKERS: tesseract workers per recognition process (default: the number of cores). */
export const RecognitionEnv = z.object({
  DOCFLOW_OCR_WORKERS: envFields.positiveInt.max(64).default(availableParallelism()),
});
