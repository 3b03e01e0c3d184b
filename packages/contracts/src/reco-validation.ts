/**
 * Validation only where needed (issue 34): a form's `recognition.validation` says from which per-field
 * confidence a recognised part counts as validated by the machine, and who validates the others.
 */
import { z } from '@hono/zod-openapi';
import { Participant } from './participant';

export const RecognitionValidation = z
  .strictObject({
    autoValidateAt: z
      .number()
      .min(0)
      .max(100)
      .optional()
      .openapi({
        description:
          'A recognised part is validated automatically (by the machine, recorded as such) when every field ' +
          'its recognition form reads was found with a per-field confidence (`fieldsByTags[tag].confidence`) ' +
          'of at least this. Absent: no part is validated automatically. A part without per-field ' +
          'confidences (recognised before them) never is.',
      }),
    validators: z
      .array(Participant)
      .max(100)
      .default([])
      .openapi({
        description:
          'Who validates a part that is not validated automatically: its validation task is in their ' +
          '`inbox` until one of them (or anyone who may write the document) validates it. Empty: the author.',
      }),
    waitBefore: z
      .enum(['approval', 'sign', 'execution'])
      .optional()
      .openapi({
        description:
          'The phase that does not start while a recognised part of the document waits for validation (or ' +
          'recognition is still running): a move that would start it answers 422 (on create: 201 with ' +
          '`X-Error`, the document staying in registration) until every part is validated; then it starts as usual.',
      }),
  })
  .openapi('RecognitionValidation');
export type RecognitionValidation = z.infer<typeof RecognitionValidation>;

/** Who validated a recognised part: a person (PUT recoData) or recognition itself (auto-validation). */
export const RecoValidatedBy = z.enum(['person', 'recognition']);
export type RecoValidatedBy = z.infer<typeof RecoValidatedBy>;
