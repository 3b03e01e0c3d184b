/**
 * The recognition development set (bench/idp-data): its labels file's shape and its loading. Each
 * document names its file, how it reaches recognition (text layer, image-only PDF, image), where it came
 * from, how its labels were obtained, and the values a reader of the page would enter, normalised.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

export const DATA_DIR = new URL('./idp-data/', import.meta.url).pathname;

/** The fields the benchmark scores, in the order its tables show them (the prebuilt invoice form's tags). */
export const FIELDS = [
  'invoiceNo',
  'invoiceDate',
  'dueDate',
  'total',
  'currency',
  'supplier',
  'vatId',
  'iban',
] as const;
export type Field = (typeof FIELDS)[number];

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD');

export const Expected = z.strictObject({
  invoiceNo: z.string().min(1).optional(),
  invoiceDate: isoDate.optional(),
  dueDate: isoDate.optional(),
  total: z
    .string()
    .regex(/^\d+\.\d{2}$/, 'a plain decimal with two places')
    .optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'an ISO 4217 code')
    .optional(),
  supplier: z.string().min(1).optional(),
  vatId: z
    .string()
    .regex(/^[A-Z]{2}[0-9A-Z]{2,13}$/, 'a VAT id without spaces')
    .optional(),
  iban: z
    .string()
    .regex(/^[A-Z]{2}\d{2}[0-9A-Z]{10,30}$/, 'an IBAN without spaces')
    .optional(),
});
export type Expected = z.infer<typeof Expected>;

export const LabelledDocument = z.strictObject({
  file: z.string().regex(/^[\w.-]+$/, 'a file name in bench/idp-data'),
  /** How recognition meets it: a PDF's text layer, a PDF of page images, or an image file. */
  kind: z.enum(['pdf-text', 'pdf-scan', 'image-scan']),
  docType: z.enum(['invoice', 'receipt']),
  source: z.strictObject({
    repository: z.string().regex(/^[\w.-]+\/[\w.-]+$/),
    path: z.string().min(1),
    commit: z.string().regex(/^[0-9a-f]{40}$/),
    licence: z.string().min(1),
  }),
  /** Where the expected values come from: the PDF's embedded ZUGFeRD/Factur-X XML, the dataset's own
   * label file, or a person reading the page. */
  labelSource: z.enum(['embedded-xml', 'dataset-label', 'read-from-page']),
  note: z.string().optional(),
  expected: Expected.refine((e) => Object.keys(e).length > 0, 'at least one expected value'),
});
export type LabelledDocument = z.infer<typeof LabelledDocument>;

export const DevSet = z.strictObject({ documents: z.array(LabelledDocument).min(1) });

/** The labelled documents, validated; throws when the labels file does not match its schema. */
export function loadDevSet(dir = DATA_DIR): LabelledDocument[] {
  return DevSet.parse(JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8'))).documents;
}

/** Labelled files missing from the folder (the set is only usable when this is empty). */
export function missingFiles(documents: readonly LabelledDocument[], dir = DATA_DIR): string[] {
  return documents.map((d) => d.file).filter((file) => !existsSync(join(dir, file)));
}
