/**
 * A PDF text layer's items (pdf.js `getTextContent()`) → placed words (reading-order.ts). Pure: pdf.ts
 * calls it inside the PDF thread with the page's items and its viewport at scale 1.
 */
import type { PlacedWord } from './reading-order';

/** What is used of a pdf.js TextItem: its string, its text matrix and its advance width (user units). */
export interface PdfTextItem {
  str: string;
  transform: number[];
  width: number;
}

/** How far a glyph reaches above and below its baseline, in font sizes (a typical Latin font). */
const ASCENT = 0.8;
const DESCENT = 0.2;
/** A text layer's words are exact. */
const TEXT_LAYER_CONFIDENCE = 100;

/**
 * The words of a page's text items in viewport units (origin top left, y down): each item's string cut
 * at its spaces, its width shared out by characters. Rotated text is placed as if it were horizontal.
 *
 * @example
 * const words = pdfItemWords(content.items, page.getViewport({ scale: 1 }).transform);
 */
export function pdfItemWords(
  items: readonly PdfTextItem[],
  viewportTransform: readonly number[],
): PlacedWord[] {
  const words: PlacedWord[] = [];
  const scale = Math.hypot(viewportTransform[0]!, viewportTransform[1]!);
  for (const item of items) {
    if (item.str.trim() === '') continue;
    const [, , c, d, x, baseline] = multiply(viewportTransform, item.transform);
    const size = Math.hypot(c, d);
    if (!(size > 0)) continue;
    const perChar = (item.width * scale) / item.str.length;
    for (const match of item.str.matchAll(/\S+/g)) {
      const x0 = x + match.index * perChar;
      words.push({
        text: match[0],
        x0,
        x1: x0 + match[0].length * perChar,
        top: baseline - ASCENT * size,
        bottom: baseline + DESCENT * size,
        baseline,
        size,
        confidence: TEXT_LAYER_CONFIDENCE,
      });
    }
  }
  return words;
}

/** The product of two PDF matrices [a b c d e f] (m applied after n, as pdf.js's Util.transform). */
function multiply(
  m: readonly number[],
  n: readonly number[],
): [number, number, number, number, number, number] {
  const [a1, b1, c1, d1, e1, f1] = m as [number, number, number, number, number, number];
  const [a2, b2, c2, d2, e2, f2] = n as [number, number, number, number, number, number];
  return [
    a1 * a2 + c1 * b2,
    b1 * a2 + d1 * b2,
    a1 * c2 + c1 * d2,
    b1 * c2 + d1 * d2,
    a1 * e2 + c1 * f2 + e1,
    b1 * e2 + d1 * f2 + f1,
  ];
}
