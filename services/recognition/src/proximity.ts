/**
 * The value of a field beside its label (layout proximity): to the label's right on the same line
 * (or on a line of the same row further right: a line never spans two columns), else below it in
 * its column, the nearest first. Pure.
 *
 * Quality of a candidate, 0–1 = label rank × value type quality × position:
 * - rank: 1 for the field's first label, 0.005 less for each later one (at most 0.2 less);
 * - position: right on the line 1, in a line of the same row 0.95, below 0.9; × 0.92 for each word
 *   between the label and the value, × 0.5 for each other field's label between them, × 0.85 for
 *   each line passed over below.
 *
 * Amounts (`sums`): a column under the label that goes on to the sum of its values (`382,47`,
 * `136,52`, `518,99` under `Endbetrag`, one row per tax rate and the sum row last) stands for that
 * sum: the sum is the value, as sure as the first.
 */
import type { Box } from '@docflow/contracts';
import type { ValueMatch } from './fields/value-match';
import type { LabelHit } from './labels';
import { type TextLine, unionBox, wordConfidence, wordsBetween, wordsIn } from './layout-text';

export interface Candidate {
  value: string;
  /** The text as read. */
  raw: string;
  pageIdx: number;
  box?: Box;
  label?: string;
  /** 0–1: label, type and position. */
  quality: number;
  /** The value's words' confidence, 0–100. */
  wordConfidence: number;
  /** Reading order, for ties: page, line, offset. */
  order: [number, number, number];
}

export type Finder = (text: string) => ValueMatch[];

const SAME_ROW = 0.95;
const BELOW = 0.9;
const PER_WORD_BETWEEN = 0.92;
/** A value right of another field's label on the line is more likely that label's. */
const PAST_OTHER_LABEL = 0.5;
const PER_LINE_PASSED = 0.85;
const LINES_BELOW = 3;
/** Bounds on a hostile page: how far right of a label, and how many values each way, are looked at. */
const MAX_RIGHT_CHARS = 160;
const MAX_VALUES = 5;
const RANK_STEP = 0.005;
/** Values of a column added up looking for its sum, lines looked at, and line heights between rows. */
const MAX_SUM_ROWS = 12;
const MAX_SUM_LINES = 200;
const SUM_ROW_GAP = 3;
const MAX_RANK_LOSS = 0.2;

/** The best value near one label hit, or undefined. `page`: every line of the hit's page. */
export function valueNearLabel(
  hit: LabelHit,
  page: readonly TextLine[],
  hits: readonly LabelHit[],
  find: Finder,
  sums = false,
): Candidate | undefined {
  const rank = 1 - Math.min(MAX_RANK_LOSS, hit.rank * RANK_STEP);
  const labelBox = unionBox(wordsIn(hit.line, hit.start, hit.end))!;
  const candidates = [
    ...rightOf(hit, hits, find),
    ...sameRow(hit, page, hits, find),
    ...below(hit, labelBox, page, hits, find, sums),
  ];
  let best: Candidate | undefined;
  for (const c of candidates) {
    c.quality *= rank;
    if (!best || c.quality > best.quality) best = c;
  }
  return best;
}

/** Values after the label on its own line; past another field's label, half as sure. */
function rightOf(hit: LabelHit, hits: readonly LabelHit[], find: Finder): Candidate[] {
  const { line } = hit;
  const to = Math.min(line.text.length, hit.end + MAX_RIGHT_CHARS);
  const others = hits.filter(
    (h) => h.line === line && h.start >= hit.end && h.start < to && h.field !== hit.field,
  );
  const position = (m: ValueMatch) =>
    PER_WORD_BETWEEN ** wordsBetween(line, hit.end, m.start) *
    PAST_OTHER_LABEL ** others.filter((h) => h.end <= m.start).length;
  return candidatesIn(line, hit.end, line.text.length, find, position).map((c) => ({
    ...c,
    label: hit.label,
  }));
}

/** Lines of the same row right of the label's line (the next column), nearest first. */
function sameRow(
  hit: LabelHit,
  page: readonly TextLine[],
  hits: readonly LabelHit[],
  find: Finder,
): Candidate[] {
  const [, top, right, bottom] = hit.line.line.box;
  const row = page
    .filter(
      (l) =>
        l !== hit.line &&
        l.line.box[0] >= right &&
        overlap(l.line.box[1], l.line.box[3], top, bottom) > 0.5 * (bottom - top),
    )
    .sort((a, b) => a.line.box[0] - b.line.box[0]);
  const next = row[0];
  // A label of its own on the next line starts another field's pair.
  if (!next || hits.some((h) => h.line === next && h.start === 0)) return [];
  return candidatesIn(next, 0, next.text.length, find, () => SAME_ROW).map((c) => ({
    ...c,
    label: hit.label,
  }));
}

/** Values in the label's column on the next lines below it. */
function below(
  hit: LabelHit,
  labelBox: Box,
  page: readonly TextLine[],
  hits: readonly LabelHit[],
  find: Finder,
  sums: boolean,
): Candidate[] {
  const [left, , right, bottom] = labelBox;
  const lineHeight = hit.line.line.box[3] - hit.line.line.box[1];
  const charWidth = (right - left) / Math.max(1, hit.end - hit.start);
  const under = page
    .filter((l) => l.line.box[1] >= bottom - lineHeight / 4 && l !== hit.line)
    .sort((a, b) => a.line.box[1] - b.line.box[1]);
  // The column's cell of a line: the words from its first in the column while they stay one phrase
  // (gaps under two characters); undefined when another label stands there (the pairs below are its).
  const cell = (line: TextLine): [number, number] | 'label' | undefined => {
    const words = line.line.words;
    const first = words.findIndex((w) => w.box[0] < right + charWidth && w.box[2] > left - charWidth);
    if (first < 0) return undefined;
    if (hits.some((h) => h.line === line && h.start <= line.starts[first]! && h.end > line.starts[first]!))
      return 'label';
    let last = first;
    while (last + 1 < words.length && words[last + 1]!.box[0] - words[last]!.box[2] < 2 * charWidth) last++;
    return [line.starts[first]!, line.starts[last]! + words[last]!.text.length];
  };
  let passed = 0;
  for (const [i, line] of under.entries()) {
    if (line.line.box[1] - bottom > LINES_BELOW * lineHeight) return [];
    const at = cell(line);
    if (at === 'label') return [];
    if (!at) continue;
    const found = candidatesIn(line, at[0], at[1], find, () => BELOW * PER_LINE_PASSED ** passed);
    if (found.length > 0) {
      const value = (sums && columnSum(found[0]!, under.slice(i + 1), cell, find, lineHeight)) || found[0]!;
      return [value, ...found.slice(1)].map((c) => ({ ...c, label: hit.label }));
    }
    passed++;
  }
  return [];
}

/** The row below `first` whose single value is the sum of the column's values above it, if any. */
function columnSum(
  first: Candidate,
  rest: readonly TextLine[],
  cell: (line: TextLine) => [number, number] | 'label' | undefined,
  find: Finder,
  lineHeight: number,
): Candidate | undefined {
  let cents = toCents(first.value);
  let count = 1;
  let lastBottom = first.box?.[3] ?? 0;
  for (const line of rest.slice(0, MAX_SUM_LINES)) {
    if (line.line.box[1] - lastBottom > SUM_ROW_GAP * lineHeight) return undefined;
    const at = cell(line);
    if (at === 'label') return undefined;
    if (!at) continue;
    const [value] = candidatesIn(line, at[0], at[1], find, () => first.quality);
    const valueCents = value && toCents(value.value);
    if (valueCents === undefined || cents === undefined || count > MAX_SUM_ROWS) return undefined;
    if (count >= 2 && valueCents === cents) return value;
    cents += valueCents;
    count++;
    lastBottom = line.line.box[3];
  }
  return undefined;
}

/** An amount in whole cents, rounded (NaN stays NaN). */
export function cents(amount: number): number {
  return Math.round(amount * 100);
}

/** A value read as an amount, in whole cents; undefined when it is not a finite number. */
export function toCents(value: string): number | undefined {
  const n = Number(value);
  return Number.isFinite(n) ? cents(n) : undefined;
}

function candidatesIn(
  line: TextLine,
  from: number,
  to: number,
  find: Finder,
  position: (m: ValueMatch) => number,
): Candidate[] {
  return find(line.text.slice(from, to))
    .slice(0, MAX_VALUES)
    .map((found) => {
      const m = { ...found, start: found.start + from, end: found.end + from };
      const words = wordsIn(line, m.start, m.end);
      return {
        value: m.value,
        raw: line.text.slice(m.start, m.end),
        pageIdx: line.pageIdx,
        box: unionBox(words),
        quality: m.quality * position(m),
        wordConfidence: wordConfidence(words),
        order: [line.pageIdx, line.lineIdx, m.start] as [number, number, number],
      };
    });
}

function overlap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
}
