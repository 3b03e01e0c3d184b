/**
 * Where a validator's corrected value stands on a page, and the label beside it (learning from
 * corrections, issue 34). Pure.
 *
 * A validator writes a value as the form wants it (`1234.50`, `2014-08-03`), the page as its supplier
 * printed it (`1.234,50`, `03.08.2014`): a run of words is the value when it reads the same word for
 * word, or when a field type's parser reads the whole run as the very value it reads the whole corrected
 * value as (dates, amounts, IBANs, VAT ids, ids). Text and party values are compared word for word.
 */
import type { Box, LayoutWord, PageLayout } from '@docflow/contracts';
import { findByType, type ScalarType } from '../fields/by-type';
import type { DateHints } from '../fields/date';
import { findWords, unionBox } from './layout-words';

/** Words a value may take on the page (`August 3 , 2014`, `1 234,50 EUR`). */
const MAX_VALUE_WORDS = 5;
/** Words of a label left of its value, at most. */
const MAX_LABEL_WORDS = 3;
/** Types whose parser says which runs of words are a corrected value, surest kind first. */
const NORMALISED_TYPES: readonly ScalarType[] = ['date', 'amount', 'iban', 'vatId', 'id'];
/** A label above its value stands within this many of the value's heights above it. */
const LABEL_ABOVE_LINES = 2.5;

export interface ValuePlace {
  words: LayoutWord[];
  box: Box;
  /** The words labelling the value: left of it on its line, else above it; absent when none do. */
  label?: { text: string; box: Box };
}

const hasLetter = (text: string) => /\p{L}/u.test(text);
const onlyPunctuation = (text: string) => !/[\p{L}\p{N}]/u.test(text);

/** The type's reading of `text` when one value of the type is the whole of it (punctuation aside). */
function wholeValue(type: ScalarType, text: string, hints: DateHints): string | undefined {
  const [first, second] = findByType(type, text, hints);
  if (!first || second) return undefined;
  return onlyPunctuation(text.slice(0, first.start)) && onlyPunctuation(text.slice(first.end))
    ? first.value
    : undefined;
}

/** How a run of words may read the corrected value: each type's normalised value of it. */
function readings(value: string, hints: DateHints): Array<[ScalarType, string]> {
  return NORMALISED_TYPES.flatMap((type) => {
    const v = wholeValue(type, value, hints);
    return v === undefined ? [] : [[type, v] as [ScalarType, string]];
  });
}

function centreDistance(a: Box, b: Box): number {
  return Math.hypot((a[0] + a[2] - b[0] - b[2]) / 2, (a[1] + a[3] - b[1] - b[3]) / 2);
}

/** Every run of words on the page that is `value`, as printed or as its type normalises it. */
function valueRuns(page: PageLayout, value: string, hints: DateHints): LayoutWord[][] {
  const exact = findWords(page, value);
  const ways = readings(value, hints);
  const runs: LayoutWord[][] = [];
  for (const line of page.lines)
    for (let i = 0; i < line.words.length; i++)
      for (let n = 1; n <= MAX_VALUE_WORDS && i + n <= line.words.length; n++) {
        const run = line.words.slice(i, i + n);
        const text = run.map((w) => w.text).join(' ');
        if (ways.some(([type, v]) => wholeValue(type, text, hints) === v)) runs.push(run);
      }
  if (exact && !runs.some((run) => run[0] === exact[0] && run.length === exact.length)) runs.unshift(exact);
  return runs;
}

/**
 * The label of a value: the words with letters just left of it in its row, or those over it in the
 * nearest line above, whichever stands nearer. Lines are kept per column, so both are looked for on
 * the whole page, not in the value's line.
 */
function labelOf(page: PageLayout, box: Box): ValuePlace['label'] {
  const words = page.lines.flatMap((l) => l.words);
  const centre = (b: Box) => (b[1] + b[3]) / 2;
  const row = words
    .filter((w) => w.box[2] <= box[0] && centre(w.box) >= box[1] && centre(w.box) <= box[3])
    .sort((a, b) => a.box[0] - b.box[0]);
  const left: LayoutWord[] = [];
  for (let i = row.length - 1; i >= 0 && left.length < MAX_LABEL_WORDS && hasLetter(row[i]!.text); i--)
    left.unshift(row[i]!);
  const overhead = page.lines
    .filter((l) => l.box[3] <= box[1] && box[1] - l.box[3] <= (box[3] - box[1]) * LABEL_ABOVE_LINES)
    .map((l) => l.words.filter((w) => w.box[0] < box[2] && w.box[2] > box[0] && hasLetter(w.text)))
    .filter((ws) => ws.length > 0);
  const above = overhead.sort((a, b) => b[0]!.box[3] - a[0]!.box[3])[0];
  const candidates = [
    ...(left.length ? [{ words: left, gap: box[0] - left.at(-1)!.box[2] }] : []),
    ...(above ? [{ words: above, gap: box[1] - above[0]!.box[3] }] : []),
  ];
  const nearest = candidates.sort((a, b) => a.gap - b.gap)[0];
  if (!nearest) return undefined;
  return {
    text: nearest.words.map((w) => w.text).join(' '),
    box: unionBox(nearest.words.map((w) => w.box)),
  };
}

/**
 * Where `value` stands on `page`: of the runs of words that are it, the nearest to `near` (the box the
 * wrong value was read at), else the first in reading order; undefined when the page does not show it.
 *
 * @example
 * findValuePlace(page, '1234.50', {}) // the words `1.234,50`, labelled `Zu zahlen`
 */
export function findValuePlace(
  page: PageLayout,
  value: string,
  hints: DateHints,
  near?: Box,
): ValuePlace | undefined {
  const runs = valueRuns(page, value, hints);
  if (runs.length === 0) return undefined;
  const boxOf = (run: readonly LayoutWord[]) => unionBox(run.map((w) => w.box));
  const words = near
    ? runs.reduce((a, b) => (centreDistance(boxOf(b), near) < centreDistance(boxOf(a), near) ? b : a))
    : runs[0]!;
  const box = boxOf(words);
  const label = labelOf(page, box);
  return { words, box, ...(label ? { label } : {}) };
}
