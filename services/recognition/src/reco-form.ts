/** A recognition form as a file is classified and read by it (a form definition's `recognition.forms[i]`). */
import type { RecognitionForm } from '@docflow/contracts';
import type { z } from 'zod';

export type RecoFormDef = z.infer<typeof RecognitionForm>;
