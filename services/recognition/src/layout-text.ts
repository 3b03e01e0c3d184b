/**
 * A layout line as text the field parsers read (its words joined by one space), and back from a
 * character range of that text to the words, box and confidence it covers. Pure.
 */
import type { Box, LayoutLine, LayoutWord, PageLayout } from '@docflow/contracts';

export interface TextLine {
  pageIdx: number;
  /** Index of the line in its page's reading order. */
  lineIdx: number;
  line: LayoutLine;
  text: string;
  /** Offset of each word in `text`. */
  starts: number[];
}

export function textLines(page: PageLayout): TextLine[] {
  return page.lines.map((line, lineIdx) => {
    const starts: number[] = [];
    let text = '';
    for (const word of line.words) {
      if (text) text += ' ';
      starts.push(text.length);
      text += word.text;
    }
    return { pageIdx: page.pageIdx, lineIdx, line, text, starts };
  });
}

/** The words of a line that the character range [start, end) touches. */
export function wordsIn(line: TextLine, start: number, end: number): LayoutWord[] {
  return line.line.words.filter((w, i) => line.starts[i]! < end && line.starts[i]! + w.text.length > start);
}

/** The number of words of a line wholly inside [start, end). */
export function wordsBetween(line: TextLine, start: number, end: number): number {
  return line.line.words.filter((w, i) => line.starts[i]! >= start && line.starts[i]! + w.text.length <= end)
    .length;
}

export function unionBox(words: readonly { box: Box }[]): Box | undefined {
  if (words.length === 0) return undefined;
  return [
    Math.min(...words.map((w) => w.box[0])),
    Math.min(...words.map((w) => w.box[1])),
    Math.max(...words.map((w) => w.box[2])),
    Math.max(...words.map((w) => w.box[3])),
  ];
}

/** The lowest confidence of the words, 0–100: a value is as sure as its least sure word. */
export function wordConfidence(words: readonly LayoutWord[]): number {
  return words.length ? Math.min(...words.map((w) => w.confidence)) : 0;
}
