/**
 * A recognition form's field declared by type and labels (issue 34) instead of a pattern: the
 * extractor finds one of the label words on the page and the value of that type beside or below it,
 * and normalises it (dates `YYYY-MM-DD`, amounts as plain decimals with `.`, currencies ISO 4217).
 * A field may still be a pattern: a plain string (as before), or `{ type: 'pattern', pattern }`.
 */
import { z } from '@hono/zod-openapi';

export const FIELD_TYPES = [
  'date',
  'amount',
  'currency',
  'id',
  'text',
  'party',
  'iban',
  'vatId',
  'table',
  'pattern',
] as const;
export const FieldType = z.enum(FIELD_TYPES);
export type FieldType = z.infer<typeof FieldType>;

/** Label words or phrases in any language, matched case-insensitively as whole words. */
const Labels = z.array(z.string().trim().min(1).max(100)).max(100);

/** The column types a line-item table reads: `amount` and `quantity` cells come normalised. */
export const TableColumn = z.strictObject({
  name: z.string().min(1).max(64),
  type: z.enum(['text', 'amount', 'quantity']).default('text'),
  labels: Labels.min(1),
});
export type TableColumn = z.infer<typeof TableColumn>;

export const FieldDeclaration = z
  .strictObject({
    type: FieldType,
    labels: Labels.optional(),
    /**
     * RE2, first group is the value: the field itself for `pattern`; for another type, read (and
     * normalised by the type) where no label finds a value.
     */
    pattern: z.string().min(1).max(1000).optional(),
    /** `table`: its columns, in the order of a row's cells. */
    columns: z.array(TableColumn).min(1).max(20).optional(),
  })
  .openapi('FieldDeclaration', {
    description:
      'A field by type and labels: the value of the type beside (right, same line) or below a label, ' +
      'normalised. `pattern` fields need `pattern`, `table` fields `columns`.',
  });
export type FieldDeclaration = z.infer<typeof FieldDeclaration>;

/** A field of a recognition form: an RE2 pattern (first group is the value) or a declaration. */
export const RecognitionField = z.union([z.string().min(1).max(1000), FieldDeclaration]);
export type RecognitionField = z.infer<typeof RecognitionField>;

/** The pattern a field runs as a pattern field (a string, or `type: 'pattern'`), if it is one. */
export function fieldPattern(field: RecognitionField): string | undefined {
  if (typeof field === 'string') return field;
  return field.type === 'pattern' ? field.pattern : undefined;
}

/** What is wrong with a declaration beyond its shape, or undefined. */
export function fieldDeclarationProblem(field: RecognitionField): string | undefined {
  if (typeof field === 'string') return undefined;
  if (field.type === 'pattern' && !field.pattern) return 'a pattern field needs `pattern`';
  if (field.type === 'table' && !field.columns) return 'a table field needs `columns`';
  // These types have no value to find without a label (currency, IBAN, VAT id and party do).
  if (['date', 'amount', 'id', 'text'].includes(field.type) && !field.labels?.length && !field.pattern)
    return `a ${field.type} field needs \`labels\` or \`pattern\``;
  return undefined;
}
