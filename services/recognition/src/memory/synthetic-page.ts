/** Synthetic page layouts for the memory's tests: words placed by hand, one line per top. */
import type { Box, PageLayout } from '@docflow/contracts';

/** A word: its text, left and top (page fractions), and OCR confidence (default 100). */
export type PlacedWord = [text: string, left: number, top: number, confidence?: number];

/** A page of one line per distinct top; each word 0.1 wide and 0.02 high. */
export function syntheticPage(words: readonly PlacedWord[], pageIdx = 0): PageLayout {
  const byTop = new Map<number, PlacedWord[]>();
  for (const w of words) byTop.set(w[2], [...(byTop.get(w[2]) ?? []), w]);
  return {
    pageIdx,
    width: 595,
    height: 842,
    source: 'text-layer',
    lines: [...byTop.entries()]
      .sort(([a], [b]) => a - b)
      .map(([top, ws]) => {
        const lineWords = [...ws]
          .sort((a, b) => a[1] - b[1])
          .map(([text, left, t, confidence]) => ({
            text,
            box: [left, t, left + 0.1, t + 0.02] as Box,
            confidence: confidence ?? 100,
          }));
        return {
          box: [lineWords[0]!.box[0], top, lineWords.at(-1)!.box[2], top + 0.02] as Box,
          words: lineWords,
        };
      }),
  };
}
