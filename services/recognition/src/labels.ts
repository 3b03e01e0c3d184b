/**
 * Where the label words of each field stand on a page: whole words or phrases, case-, accent- and
 * hyphen-insensitive (`Rechnungs-Nr.`, `N° de facture`, `Factuurnummer:`, `VAT-ID`). Pure.
 *
 * A label inside a longer label of another field on the same line is not that field's (`total` in
 * `Total VAT` is the tax's label, `invoice` in `Invoice date` the date's), so similar labels do not
 * steal each other's values.
 */
import { fold } from './fields/value-match';
import type { TextLine } from './layout-text';

export interface LabelHit {
  field: string;
  line: TextLine;
  /** Character range in the line's text. */
  start: number;
  end: number;
  /** The label as read on the page. */
  label: string;
  /** Position of the label in the field's list: the first ones are the surest. */
  rank: number;
}

const WORD = /[\p{L}\p{N}]/u;
/** Label hits kept per line (the first ones): a hostile line of labels costs no more than this. */
const MAX_HITS_PER_LINE = 50;

/** Every label hit of every field on the lines, shadowed hits left out; in reading order. */
export function findLabelHits(
  lines: readonly TextLine[],
  labelsByField: Readonly<Record<string, readonly string[]>>,
): LabelHit[] {
  const hits: LabelHit[] = [];
  const needles = Object.entries(labelsByField).map(
    ([field, labels]) =>
      [field, labels.map((l) => foldKeepingLength(l.trim().replace(/\s+/g, ' ')))] as const,
  );
  for (const line of lines) {
    const folded = foldKeepingLength(line.text);
    const onLine: LabelHit[] = [];
    for (const [field, labels] of needles)
      for (const [rank, needle] of labels.entries()) {
        for (
          let at = folded.indexOf(needle);
          at >= 0 && needle && onLine.length < MAX_HITS_PER_LINE * 4;
          at = folded.indexOf(needle, at + 1)
        ) {
          const end = at + needle.length;
          const boundedLeft = !WORD.test(folded[at - 1] ?? '') || !WORD.test(needle[0]!);
          const boundedRight = !WORD.test(folded[end] ?? '') || !WORD.test(needle.at(-1)!);
          if (boundedLeft && boundedRight)
            onLine.push({ field, line, start: at, end, label: line.text.slice(at, end), rank });
        }
      }
    const first = onLine.sort((a, b) => a.start - b.start).slice(0, MAX_HITS_PER_LINE);
    hits.push(...first.filter((h) => !shadowed(h, first)));
  }
  return hits;
}

/** Inside a longer hit: of another field (its label), or of the same field (one hit of the two). */
function shadowed(hit: LabelHit, onLine: readonly LabelHit[]): boolean {
  return onLine.some(
    (o) =>
      o !== hit &&
      o.start <= hit.start &&
      o.end >= hit.end &&
      (o.end - o.start > hit.end - hit.start || (o.field === hit.field && o.rank < hit.rank)),
  );
}

/**
 * fold() where it keeps the length (offsets must stay those of the text), else lower case; a hyphen
 * reads as a space, as labels write either (`VAT-ID` and `VAT ID`, `USt-IdNr` and `USt IdNr`).
 */
function foldKeepingLength(text: string): string {
  const folded = fold(text);
  return (folded.length === text.length ? folded : text.toLowerCase()).replaceAll('-', ' ');
}
