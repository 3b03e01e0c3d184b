/** Finding words on a PageLayout by text or by place (the memory's lookups). Pure. */
import type { Box, LayoutWord, PageLayout } from '@docflow/contracts';

/** A word's text as compared: letters and digits, lower case. */
const token = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

const tokens = (text: string) => text.split(/\s+/).map(token).filter(Boolean);

/** The smallest box holding every given box. */
export function unionBox(boxes: readonly Box[]): Box {
  return [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
}

/** The first run of words on the page (within one line, in reading order) that reads `text`. */
export function findWords(page: PageLayout, text: string): LayoutWord[] | undefined {
  const wanted = tokens(text);
  if (wanted.length === 0) return undefined;
  for (const line of page.lines) {
    const words = line.words.filter((w) => token(w.text) !== '');
    for (let i = 0; i + wanted.length <= words.length; i++)
      if (wanted.every((t, k) => token(words[i + k]!.text) === t)) return words.slice(i, i + wanted.length);
  }
  return undefined;
}

/** Margin around a remembered box (page fractions): a value printed a little off still counts. */
const SLACK = 0.01;

/** The words whose centre lies within `box` (widened by SLACK), in reading order. */
export function wordsWithin(page: PageLayout, box: Box): LayoutWord[] {
  const [l, t, r, b] = [box[0] - SLACK, box[1] - SLACK, box[2] + SLACK, box[3] + SLACK];
  return page.lines.flatMap((line) =>
    line.words.filter((w) => {
      const x = (w.box[0] + w.box[2]) / 2;
      const y = (w.box[1] + w.box[3]) / 2;
      return x >= l && x <= r && y >= t && y <= b;
    }),
  );
}
