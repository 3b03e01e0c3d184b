/**
 * How tesseract segments an image before reading it (issue 34). Pure.
 *
 * - `auto` (tesseract's own page layout analysis, what the `tesseract` command does): a page's
 *   columns, blocks and table cells are found first, so an invoice's label and amount cells are read
 *   as cells (`Total TTC 530,75 €`, not `To TIC s%0.75€` as one uniform block reads them).
 * - `block` (one uniform block of text, tesseract.js's default): for an image narrower than a page at
 *   100 dpi — a till receipt, a slip, a coarse scan — layout analysis takes its small print for noise
 *   and drops whole lines (a receipt's date and total); one column read as one block keeps them.
 */

export type Segmentation = 'auto' | 'block';

/** A Letter page (8.5 in, wider than A4's 8.27 in) at 100 dpi: narrower images are strips or coarse. */
export const MIN_PAGE_WIDTH_PX = 850;

/** The segmentation for an image `width` pixels wide. */
export function segmentationFor(width: number): Segmentation {
  return width < MIN_PAGE_WIDTH_PX ? 'block' : 'auto';
}
