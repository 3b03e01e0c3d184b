/**
 * Where recognition read things on a page (issue 34): words with their boxes in reading order, and
 * where each recognised value stood. The recognition service produces them (OCR and PDF text layers
 * alike), the console highlights a value on the page image with them.
 *
 * Coordinates are fractions of the page's width and height (0–1, origin top left), so a box lays over a
 * page image of any resolution.
 */
import { z } from '@hono/zod-openapi';

export const Box = z
  .tuple([
    z.number().min(0).max(1),
    z.number().min(0).max(1),
    z.number().min(0).max(1),
    z.number().min(0).max(1),
  ])
  .openapi('Box', { description: '[left, top, right, bottom] as fractions of the page width and height.' });
export type Box = z.infer<typeof Box>;

export const LayoutWord = z.object({
  text: z.string(),
  box: Box,
  /** OCR confidence of the word, 0–100 (100 for a PDF text layer). */
  confidence: z.number().min(0).max(100),
});
export type LayoutWord = z.infer<typeof LayoutWord>;

/** Words of one line, left to right; a line never spans two columns. */
export const LayoutLine = z.object({ box: Box, words: z.array(LayoutWord) });
export type LayoutLine = z.infer<typeof LayoutLine>;

export const PageLayout = z
  .object({
    /** 0-based page index in the file. */
    pageIdx: z.number().int().min(0),
    /** The page's size in points (PDF) or pixels (image); the aspect ratio of the boxes. */
    width: z.number().positive(),
    height: z.number().positive(),
    /** Lines in reading order: columns one after another, top to bottom within a column. */
    lines: z.array(LayoutLine),
    source: z.enum(['text-layer', 'ocr']),
  })
  .openapi('PageLayout');
export type PageLayout = z.infer<typeof PageLayout>;

/**
 * How one recognised value was found (extension beside `valuesByTags`): its confidence and where it
 * stood, so a validator checks only the unsure values and sees them on the page.
 */
export const RecognizedField = z
  .object({
    /** 0–100: word confidence × how well label and type matched × cross-checks. */
    confidence: z.number().min(0).max(100),
    /** The text as read, before normalisation (e.g. `3 août 2024` for `2024-08-03`). */
    raw: z.string().max(10_000).optional(),
    /** Page of the value (0-based, in the file) and its box there; absent for a value not tied to one place. */
    pageIdx: z.number().int().min(0).optional(),
    box: Box.optional(),
    /** The label the value was read beside, as read (e.g. `Rechnungsnummer`). */
    label: z.string().max(200).optional(),
    /**
     * `memory`: read at the place a validator's correction taught for the part's supplier (issue 34,
     * learning from corrections); absent: read by the form's fields.
     */
    source: z.literal('memory').optional(),
  })
  .openapi('RecognizedField');
export type RecognizedField = z.infer<typeof RecognizedField>;
