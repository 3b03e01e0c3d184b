/**
 * Tesseract's result blocks (tesseract.js `output: { blocks: true }`) → placed words (reading-order.ts),
 * in the pixels of the image read. Pure.
 */
import type Tesseract from 'tesseract.js';
import type { PlacedWord } from './reading-order';

/**
 * Every word tesseract read, with its box and confidence, standing on its line's baseline (taken where
 * the word is, for a skewed line) with the line's height as its size.
 *
 * @example
 * const { data } = await worker.recognize(png, {}, { text: true, blocks: true });
 * const words = ocrWords(data.blocks ?? []);
 */
export function ocrWords(blocks: readonly Tesseract.Block[]): PlacedWord[] {
  const words: PlacedWord[] = [];
  for (const block of blocks)
    for (const paragraph of block.paragraphs)
      for (const line of paragraph.lines) {
        const size = line.rowAttributes?.rowHeight || line.bbox.y1 - line.bbox.y0;
        for (const word of line.words) {
          if (word.text.trim() === '') continue;
          const { x0, y0, x1, y1 } = word.bbox;
          words.push({
            text: word.text.trim(),
            x0,
            x1,
            top: y0,
            bottom: y1,
            baseline: baselineAt(line.baseline, (x0 + x1) / 2) ?? y1,
            size: Math.max(1, size),
            confidence: word.confidence,
          });
        }
      }
  return words;
}

function baselineAt(b: Tesseract.Baseline | undefined, x: number): number | undefined {
  if (!b) return undefined;
  if (b.x1 === b.x0) return b.y0;
  return b.y0 + ((b.y1 - b.y0) * (x - b.x0)) / (b.x1 - b.x0);
}
