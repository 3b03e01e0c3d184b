/**
 * Recognition: the contract's RecoData shape, the events of the recognition service's
 * `recognition-<docId>` streams.
 */
import { z } from '@hono/zod-openapi';
import { ValuesByTags } from './documents';
import { Hex24Id } from './ids';
import { RecognizedField } from './layout';
import { RecoValidatedBy } from './reco-validation';

export const RecoForm = z
  .object({ form: z.null(), id: z.string(), name: z.string() })
  .openapi('RecoForm', { description: 'The recognition form a part was classified as.' });

/** A recognised part of an attachment, as the recognition service produces it. */
export const RecognizedPart = z.object({
  _id: Hex24Id,
  pageIdxStart: z.number().int().min(0),
  pageIdxEnd: z.number().int().min(0),
  recoForm: RecoForm,
  /** `recoFormConfidence`, percent. */
  confidence: z.number().min(0).max(100),
  valuesByTags: ValuesByTags,
  /** How each value of `valuesByTags` was found (extension, issue 34); absent on parts recognised before it. */
  fieldsByTags: z.record(z.string(), RecognizedField).optional(),
});
export type RecognizedPart = z.infer<typeof RecognizedPart>;

export const RecoData = z
  .object({
    _id: Hex24Id,
    pageIdxStart: z.number().int().openapi({ description: '0-based.' }),
    pageIdxEnd: z.number().int().openapi({ description: '0-based, inclusive.' }),
    validated: z.boolean(),
    validatedBy: RecoValidatedBy.optional().openapi({
      description:
        'Extension: who validated the part: `person` (PUT recoData) or `recognition` (every value cleared ' +
        'the form\u2019s `recognition.validation.autoValidateAt`). Absent while not validated, and on parts ' +
        'validated before it was recorded (by a person).',
    }),
    autoValidateAt: z
      .number()
      .min(0)
      .max(100)
      .optional()
      .openapi({
        description:
          'Extension: the threshold this part\u2019s per-field confidences were judged against when it was ' +
          'recognised \u2014 the `recognition.validation.autoValidateAt` of the form as the document was ' +
          'created with it (a later change of the form does not change it). Every value at or above it: ' +
          'validated by recognition. Absent when that form set none (no part is validated automatically).',
      }),
    recoForm: RecoForm,
    valuesByTags: ValuesByTags,
    recoResult: z.object({ recoForm: RecoForm, recoFormConfidence: z.number() }),
    fieldsByTags: z
      .record(z.string(), RecognizedField)
      .optional()
      .openapi({
        description:
          'Extension: per recognised value, its confidence (0\u2013100) and where on which page it was read. ' +
          'Absent on parts recognised before per-field confidence existed.',
      }),
    fileId: Hex24Id.openapi({ description: 'The attachment the part was recognised in (extension).' }),
  })
  .openapi('RecoData');
export type RecoData = z.infer<typeof RecoData>;

/**
 * Characters of a file's recognised text an event carries at most (64 Ki): the views index it for
 * search; the rest of a longer file is not searchable.
 */
export const RECOGNIZED_TEXT_MAX_CHARS = 65_536;

export const RecognitionEvents = {
  FileRecognized: z.object({
    fileId: Hex24Id,
    parts: z.array(RecognizedPart),
    pageCount: z.number().int(),
    /** The file's text (text layer or OCR), pages joined by a line break, cut at RECOGNIZED_TEXT_MAX_CHARS. */
    text: z.string().max(RECOGNIZED_TEXT_MAX_CHARS).optional(),
    /**
     * Where the recognition service keeps the file's page layouts (issue 34): a blob of its blob store
     * holding the JSON `PageLayout[]` of the file's first `pages` pages (bounded in size). Absent on files
     * recognised before layouts were kept.
     */
    layouts: z.object({ key: z.string().max(200), pages: z.number().int().min(0) }).optional(),
    /** The name of the form the file was recognised for (absent before issue 34's correction memory). */
    form: z.string().optional(),
  }),
  FileRecognitionFailed: z.object({ fileId: Hex24Id, reason: z.string(), detail: z.string() }),
  /**
   * The text of a file whose FileRecognized was written before recognition kept text (73fbdae), read
   * again from the stored file by the text backfill: it makes such documents searchable.
   */
  FileTextRecognized: z.object({ fileId: Hex24Id, text: z.string().max(RECOGNIZED_TEXT_MAX_CHARS) }),
};
export type RecognitionEvent = {
  [K in keyof typeof RecognitionEvents]: { type: K; data: z.infer<(typeof RecognitionEvents)[K]> };
}[keyof typeof RecognitionEvents];

export function parseRecognitionEvent(type: string, data: unknown): RecognitionEvent {
  const schema = RecognitionEvents[type as keyof typeof RecognitionEvents];
  if (!schema) throw new Error(`unknown recognition event type ${type}`);
  return { type, data: schema.parse(data) } as RecognitionEvent;
}

export const recognitionStream = (docId: string) => `recognition-${docId}`;

/** `PUT /api/v2/docForm/{id}/recoData/{recoId}` (extension): manual validation. */
export const RecoValidation = z
  .strictObject({
    valuesByTags: ValuesByTags,
    /**
     * Also copy the validated values into the document's own fields (`valuesByTags` of the document), one
     * more event (issue 33). Default false: recognition fills only empty fields when it is recorded, and
     * a validation changes the document's fields only when asked to.
     */
    copyToFields: z
      .boolean()
      .optional()
      .openapi({
        description:
          "Also copy the validated values into the document's fields (default false: recognition only fills " +
          'empty fields when recorded; the document keeps the rest until a validation asks to copy).',
      }),
  })
  .openapi('RecoValidation');
