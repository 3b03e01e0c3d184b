/**
 * A page's layout made from its plain text (one layout line per text line, words at their character
 * positions), so the layout extractor runs on page texts until real layouts (words and boxes from the
 * text layer or OCR) reach it. Pure.
 *
 * Boxes are synthetic: a character is 1/(longest line) of the width and a line 1/(lines) of the height,
 * so text laid out with spaces (`pdftotext -layout`, OCR) keeps its columns; every word has the page's
 * confidence.
 */
import type { LayoutLine, PageLayout } from '@docflow/contracts';

export function layoutFromText(
  text: string,
  pageIdx: number,
  source: PageLayout['source'] = 'text-layer',
  confidence = 100,
): PageLayout {
  const rows = text.split(/\r\n?|\n/);
  const width = Math.max(1, ...rows.map((r) => r.length));
  const height = Math.max(1, rows.length);
  const wordConfidence = Number.isFinite(confidence) ? Math.min(100, Math.max(0, confidence)) : 0;
  const lines: LayoutLine[] = [];
  for (const [y, row] of rows.entries()) {
    const top = y / height;
    const bottom = (y + 1) / height;
    const words = [...row.matchAll(/\S+/g)].map((m) => ({
      text: m[0],
      box: [m.index! / width, top, (m.index! + m[0].length) / width, bottom] as [
        number,
        number,
        number,
        number,
      ],
      confidence: wordConfidence,
    }));
    if (words.length > 0) lines.push({ box: [words[0]!.box[0], top, words.at(-1)!.box[2], bottom], words });
  }
  return { pageIdx, width, height, lines, source };
}
