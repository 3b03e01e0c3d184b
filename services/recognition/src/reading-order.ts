/**
 * Words with positions → lines in reading order (issue 34), for PDF text layers and OCR alike. Pure.
 *
 * - **Rows**: words whose baselines lie within ROW_TOLERANCE of a font size stand on one row.
 * - **Lines**: a row is cut where the gap between two words is wider than SPLIT_GAP_EM font sizes (a
 *   column gutter, a tab stop); each piece is a line (`LayoutLine`), so a line never spans two columns.
 *   Words closer than GLUE_GAP_EM are one word (PDFs that place each letter on its own).
 * - **Order** (recursive XY-cut): a region splits at its widest horizontal gap when that is higher than
 *   SECTION_GAP_EM (sections: a heading, the columns, a footer); else at the widest vertical gutter (no
 *   line crosses it, at least SPLIT_GAP_EM wide) into columns, left before right; else at every
 *   horizontal gap into bands, top before bottom; a region of one row reads left to right. A gutter whose two sides pair up
 *   row by row (TABLE_PAIRED of the lines on each side stand on a common baseline) is a table, not
 *   columns: it is read row by row, so a value stays beside its label and a line item stays together.
 * - **Text**: words joined by a space, lines by a line break; the searchable text is made from it.
 */
import type { Box, LayoutLine, PageLayout } from '@docflow/contracts';

/** A word where it stands, in page units with the origin top left (points for a PDF, pixels for an image). */
export interface PlacedWord {
  text: string;
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  /** The y of the baseline the word stands on. */
  baseline: number;
  /** Its font size (the height of a line of its text). */
  size: number;
  /** 0–100. */
  confidence: number;
}

/** Baselines closer than this many font sizes are one row. */
const ROW_TOLERANCE = 0.4;
/** A gap wider than this many font sizes ends a line (normal word spaces are about 0.25). */
export const SPLIT_GAP_EM = 1.5;
/** A horizontal gap this many font sizes high across a region separates sections before any column split. */
const SECTION_GAP_EM = 3;
/** Words closer than this many font sizes are one word. */
const GLUE_GAP_EM = 0.08;
/** Share of the lines on each side of a gutter that must pair up by baseline for it to be a table. */
const TABLE_PAIRED = 0.8;
/** Box coordinates are kept to this many decimals (a ten-thousandth of the page). */
const BOX_DECIMALS = 4;

interface Segment {
  words: PlacedWord[];
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  baseline: number;
  size: number;
}

/**
 * The lines of a page in reading order, their boxes as fractions of `page`.
 *
 * @example
 * const lines = readingOrder(words, { width: 595, height: 842 });
 */
export function readingOrder(
  words: readonly PlacedWord[],
  page: { width: number; height: number },
): LayoutLine[] {
  const segments = rows(words.filter((w) => w.text.trim() !== '')).flatMap(lineSegments);
  return order(segments).map((s) => toLine(s, page));
}

/** A page's layout from its placed words. */
export function pageLayout(
  words: readonly PlacedWord[],
  page: { pageIdx: number; width: number; height: number; source: PageLayout['source'] },
): PageLayout {
  return { ...page, lines: readingOrder(words, page) };
}

/** The text of a page as recognition reads it: its lines in reading order, words joined by a space. */
export function layoutText(layout: PageLayout): string {
  return layout.lines.map((l) => l.words.map((w) => w.text).join(' ')).join('\n');
}

function rows(words: readonly PlacedWord[]): PlacedWord[][] {
  const sorted = [...words].sort((a, b) => a.baseline - b.baseline || a.x0 - b.x0);
  const out: { baseline: number; size: number; words: PlacedWord[] }[] = [];
  for (const word of sorted) {
    const row = out.at(-1);
    if (row && Math.abs(word.baseline - row.baseline) <= ROW_TOLERANCE * Math.min(word.size, row.size))
      row.words.push(word);
    else out.push({ baseline: word.baseline, size: word.size, words: [word] });
  }
  return out.map((r) => r.words);
}

/** A row cut at its wide gaps, with the words that touch glued together. */
function lineSegments(row: PlacedWord[]): Segment[] {
  const sorted = [...row].sort((a, b) => a.x0 - b.x0);
  const segments: PlacedWord[][] = [];
  let current: PlacedWord[] = [];
  for (const word of sorted) {
    const prev = current.at(-1);
    const gap = prev ? word.x0 - prev.x1 : 0;
    const em = prev ? Math.max(prev.size, word.size) : word.size;
    if (prev && gap < GLUE_GAP_EM * em) current[current.length - 1] = glue(prev, word);
    else if (prev && gap > SPLIT_GAP_EM * em) {
      segments.push(current);
      current = [word];
    } else current.push(word);
  }
  if (current.length > 0) segments.push(current);
  return segments.map(segment);
}

function glue(a: PlacedWord, b: PlacedWord): PlacedWord {
  return {
    text: a.text + b.text,
    x0: Math.min(a.x0, b.x0),
    x1: Math.max(a.x1, b.x1),
    top: Math.min(a.top, b.top),
    bottom: Math.max(a.bottom, b.bottom),
    baseline: a.baseline,
    size: Math.max(a.size, b.size),
    confidence: Math.min(a.confidence, b.confidence),
  };
}

function segment(words: PlacedWord[]): Segment {
  return {
    words,
    x0: Math.min(...words.map((w) => w.x0)),
    x1: Math.max(...words.map((w) => w.x1)),
    top: Math.min(...words.map((w) => w.top)),
    bottom: Math.max(...words.map((w) => w.bottom)),
    baseline: median(words.map((w) => w.baseline)),
    size: median(words.map((w) => w.size)),
  };
}

/** Recursive XY-cut (see the module comment). */
function order(region: Segment[]): Segment[] {
  if (region.length <= 1) return region;
  const em = median(region.map((s) => s.size));
  const bands = gaps(region, (s) => [s.top, s.bottom]);
  const band = widest(bands);
  // A blank stretch across the whole region ends what is above it, columns or not.
  if (band && band.width > SECTION_GAP_EM * em)
    return [
      ...order(region.filter((s) => s.bottom <= band.at)),
      ...order(region.filter((s) => s.top > band.at)),
    ];
  const gutter = widest(gaps(region, (s) => [s.x0, s.x1]));
  if (gutter && gutter.width > SPLIT_GAP_EM * em) {
    const left = region.filter((s) => s.x1 <= gutter.at);
    const right = region.filter((s) => s.x0 > gutter.at);
    if (!isTable(left, right)) return [...order(left), ...order(right)];
  }
  // Every band at once (not the widest first): a page of many rows costs no deeper recursion.
  if (bands.length > 0) {
    const cuts = [...bands.map((b) => b.at), Number.POSITIVE_INFINITY];
    const parts = cuts.map((cut, k) =>
      region.filter((s) => s.bottom <= cut && (k === 0 || s.top > cuts[k - 1]!)),
    );
    return parts.flatMap(order);
  }
  // Lines that overlap vertically without a gap between them: by row, then left to right.
  return rows(region.flatMap((s) => s.words))
    .flatMap(lineSegments)
    .sort((a, b) => (sameRow(a, b) ? a.x0 - b.x0 : a.baseline - b.baseline));
}

interface Gap {
  /** A coordinate inside the gap: everything before it ends at or before it. */
  at: number;
  width: number;
}

/** The empty intervals between the segments' extents along one axis, in order. */
function gaps(region: Segment[], extent: (s: Segment) => [number, number]): Gap[] {
  const spans = region.map(extent).sort((a, b) => a[0] - b[0]);
  let reach = spans[0]![1];
  const found: Gap[] = [];
  for (const [start, end] of spans.slice(1)) {
    if (start > reach) found.push({ at: reach, width: start - reach });
    reach = Math.max(reach, end);
  }
  return found;
}

const widest = (found: Gap[]): Gap | undefined =>
  found.reduce<Gap | undefined>((best, g) => (!best || g.width > best.width ? g : best), undefined);

function isTable(left: Segment[], right: Segment[]): boolean {
  const pairedShare = (side: Segment[], other: Segment[]) =>
    side.filter((s) => other.some((o) => sameRow(s, o))).length / side.length;
  return pairedShare(left, right) >= TABLE_PAIRED && pairedShare(right, left) >= TABLE_PAIRED;
}

function sameRow(a: Segment, b: Segment): boolean {
  return Math.abs(a.baseline - b.baseline) <= ROW_TOLERANCE * Math.min(a.size, b.size);
}

function toLine(s: Segment, page: { width: number; height: number }): LayoutLine {
  const box = (x0: number, top: number, x1: number, bottom: number): Box => [
    fraction(x0, page.width),
    fraction(top, page.height),
    fraction(x1, page.width),
    fraction(bottom, page.height),
  ];
  return {
    box: box(s.x0, s.top, s.x1, s.bottom),
    words: s.words.map((w) => ({
      text: w.text,
      box: box(w.x0, w.top, w.x1, w.bottom),
      confidence: Math.max(0, Math.min(100, w.confidence)),
    })),
  };
}

function fraction(value: number, of: number): number {
  const f = Math.max(0, Math.min(1, value / of));
  return Number(f.toFixed(BOX_DECIMALS));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
