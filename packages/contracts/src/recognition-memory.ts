/**
 * Learning from corrections (issue 34): where a supplier's value stood on its documents, remembered
 * per form when a validator corrects a recognised value, and tried first on that supplier's next
 * document. The recognition service owns it: one `idpmemory-<formName>` stream per form (not under the
 * `recognition-` prefix, whose streams are documents' results); an admin reads and removes it.
 */
import { z } from '@hono/zod-openapi';
import { Hex24Id } from './ids';
import { Box } from './layout';

export const RememberedPlace = z
  .object({
    /** The label the value stood beside, as read (absent: it stood by no label). */
    label: z.string().max(200).optional(),
    /** The page within the recognised part (0: its first page). */
    pageIdx: z.number().int().min(0),
    /** Where the value stood on its page. */
    box: Box,
    /**
     * The value's top-left corner minus its label's, in page fractions, when the label's place was
     * known: on the next document the value is looked for there beside the label, wherever the label is.
     */
    fromLabel: z.tuple([z.number().min(-1).max(1), z.number().min(-1).max(1)]).optional(),
    /** The corrected value (for an admin to recognise the entry). */
    value: z.string().max(10_000),
    /** The document whose correction taught it, and when. */
    docId: Hex24Id,
    at: z.string(),
  })
  .openapi('RememberedPlace', {
    description: 'Where a supplier\u2019s value of one tag stood, learnt from a validator\u2019s correction.',
  });
export type RememberedPlace = z.infer<typeof RememberedPlace>;

export const SupplierMemory = z
  .object({
    /** The supplier as recognition compares it (normaliseSupplier). */
    supplier: z.string(),
    places: z.record(z.string(), RememberedPlace),
  })
  .openapi('SupplierMemory');

export const RecognitionMemory = z
  .object({ form: z.string(), suppliers: z.array(SupplierMemory) })
  .openapi('RecognitionMemory', {
    description:
      'What recognition learnt from validators\u2019 corrections on documents of a form: per supplier ' +
      '(the `supplier` value, normalised), where each corrected value stood.',
  });
export type RecognitionMemory = z.infer<typeof RecognitionMemory>;

export const RecognitionMemoryEvents = {
  PlaceRemembered: z.object({ supplier: z.string().min(1), tag: z.string(), place: RememberedPlace }),
  /** An admin removed what was learnt of a supplier. */
  SupplierForgotten: z.object({ supplier: z.string().min(1) }),
};
export type RecognitionMemoryEvent = {
  [K in keyof typeof RecognitionMemoryEvents]: {
    type: K;
    data: z.infer<(typeof RecognitionMemoryEvents)[K]>;
  };
}[keyof typeof RecognitionMemoryEvents];

export function parseRecognitionMemoryEvent(type: string, data: unknown): RecognitionMemoryEvent {
  const schema = RecognitionMemoryEvents[type as keyof typeof RecognitionMemoryEvents];
  if (!schema) throw new Error(`unknown recognition memory event type ${type}`);
  return { type, data: schema.parse(data) } as RecognitionMemoryEvent;
}

export const recognitionMemoryStream = (formName: string) => `idpmemory-${formName}`;

/**
 * A supplier as the memory compares it: letters and digits of any script, lower case, single spaces
 * (`ACME GmbH.` and `acme  gmbh` are one supplier); '' when nothing is left.
 */
export function normaliseSupplier(value: string): string {
  return value
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join(' ')
    .slice(0, 200);
}
