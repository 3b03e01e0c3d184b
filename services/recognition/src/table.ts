/**
 * Line-item tables by column alignment: a header line shows the labels of two or more of the table's
 * columns; each line below it is a row whose words go to the column whose header they stand under
 * (nearest header centre), until a line that carries another field's label (`Subtotal`, `Total`) or
 * two lines without an amount. A line of words without an amount right after a row continues its
 * description.
 * Where alignment leaves the amount column empty (text joined with single spaces), the trailing
 * numbers of the line fill the number columns from the right. Amount cells come as plain decimals,
 * quantities as plain numbers. Pure.
 */
import type { TableColumn } from '@docflow/contracts';
import { parseAmount } from './fields/amount';
import { findLabelHits } from './labels';
import { type TextLine, unionBox, wordConfidence } from './layout-text';
import { type Candidate, cents } from './proximity';

export interface FoundTable {
  rows: string[][];
  /** Sum of the `amount` column named `amount` (else the last amount column), when every row has one. */
  amountSum?: number;
  /** Where and how surely it was read (value: the row count). */
  candidate: Candidate;
}

const MAX_ROWS = 1000;
const MAX_CELL = 10_000;

export function findTable(
  pages: readonly (readonly TextLine[])[],
  columns: readonly TableColumn[],
  stopLabels: readonly string[],
): FoundTable | undefined {
  const byColumn = Object.fromEntries(columns.map((c) => [c.name, c.labels]));
  for (const page of pages) {
    const headerHits = findLabelHits(page, byColumn);
    const header = page.find(
      (l) => new Set(headerHits.filter((h) => h.line === l).map((h) => h.field)).size >= 2,
    );
    if (!header) continue;
    const stops = new Set(findLabelHits(page, { stop: stopLabels }).map((h) => h.line));
    // Each column found in the header: its centre.
    const centres = new Map<string, number>();
    for (const h of headerHits.filter((x) => x.line === header && !centres.has(x.field))) {
      const words = header.line.words.filter(
        (_, i) =>
          header.starts[i]! < h.end && header.starts[i]! + header.line.words[i]!.text.length > h.start,
      );
      const box = unionBox(words)!;
      centres.set(h.field, (box[0] + box[2]) / 2);
    }
    const rows = readRows(page, header, stops, columns, centres);
    if (rows.length > 0) return table(rows, columns, header);
  }
  return undefined;
}

interface Row {
  cells: string[];
  lines: TextLine[];
}

function readRows(
  page: readonly TextLine[],
  header: TextLine,
  stops: ReadonlySet<TextLine>,
  columns: readonly TableColumn[],
  centres: ReadonlyMap<string, number>,
): Row[] {
  const rows: Row[] = [];
  let misses = 0;
  for (const line of page.slice(header.lineIdx + 1)) {
    if (stops.has(line) || rows.length === MAX_ROWS) break;
    const cells = aligned(line, columns, centres) ?? trailing(line, columns);
    if (cells) {
      rows.push({ cells, lines: [line] });
      misses = 0;
      continue;
    }
    const last = rows.at(-1);
    if (last && misses === 0 && /\p{L}/u.test(line.text) && !/\d[.,]\d{2}(?!\d)/.test(line.text)) {
      // A description on two lines (no amount on the second).
      const d = columns.findIndex((c) => c.type === 'text');
      if (d >= 0) last.cells[d] = `${last.cells[d]} ${line.text}`.trim().slice(0, MAX_CELL);
      last.lines.push(line);
    }
    if (++misses === 2 && rows.length > 0) break;
  }
  return rows;
}

/** Cells by alignment under the header; undefined when the amount column gets no amount. */
function aligned(
  line: TextLine,
  columns: readonly TableColumn[],
  centres: ReadonlyMap<string, number>,
): string[] | undefined {
  const placed = new Map<string, string[]>();
  for (const word of line.line.words) {
    const centre = (word.box[0] + word.box[2]) / 2;
    let nearest: string | undefined;
    for (const [name, x] of centres)
      if (nearest === undefined || Math.abs(x - centre) < Math.abs(centres.get(nearest)! - centre))
        nearest = name;
    placed.set(nearest!, [...(placed.get(nearest!) ?? []), word.text]);
  }
  const cells = columns.map((c) => cell(c, (placed.get(c.name) ?? []).join(' ')));
  // Every number column of the header holds one number (else the words are not aligned as it is).
  const numbersFit = columns.every((c, i) => c.type === 'text' || !centres.has(c.name) || cells[i] !== '');
  return numbersFit && complete(cells, columns) ? cells : undefined;
}

/** Cells from the line's trailing numbers, right to left into the number columns; the rest is text. */
function trailing(line: TextLine, columns: readonly TableColumn[]): string[] | undefined {
  const words = line.line.words.map((w) => w.text);
  const numeric = columns.filter((c) => c.type !== 'text');
  const cells = columns.map(() => '');
  for (const column of [...numeric].reverse()) {
    const word = words.at(-1);
    if (word === undefined || parseAmount(word) === undefined) break;
    cells[columns.indexOf(column)] = cell(column, words.pop()!);
  }
  const text = columns.findIndex((c) => c.type === 'text');
  if (text >= 0) cells[text] = words.join(' ').slice(0, MAX_CELL);
  return complete(cells, columns) && words.length > 0 ? cells : undefined;
}

function cell(column: TableColumn, text: string): string {
  if (column.type === 'text') return text.slice(0, MAX_CELL);
  const amount = parseAmount(text);
  if (amount === undefined) return '';
  return column.type === 'quantity' ? amount.replace(/\.?0+$/, '') || '0' : amount;
}

/** A row has its amount (the last amount column) and some text. */
function complete(cells: readonly string[], columns: readonly TableColumn[]): boolean {
  const amount = amountColumn(columns);
  return (amount < 0 || cells[amount] !== '') && cells.some((c) => c !== '');
}

function amountColumn(columns: readonly TableColumn[]): number {
  const named = columns.findIndex((c) => c.type === 'amount' && c.name === 'amount');
  return named >= 0 ? named : columns.findLastIndex((c) => c.type === 'amount');
}

function table(rows: readonly Row[], columns: readonly TableColumn[], header: TextLine): FoundTable {
  const amount = amountColumn(columns);
  const lines = rows.flatMap((r) => r.lines);
  const words = lines.flatMap((l) => l.line.words);
  const amountSum =
    amount >= 0 ? cents(rows.reduce((sum, r) => sum + Number(r.cells[amount]), 0)) / 100 : undefined;
  return {
    rows: rows.map((r) => r.cells),
    amountSum,
    candidate: {
      value: String(rows.length),
      raw: lines.map((l) => l.text).join('\n'),
      pageIdx: header.pageIdx,
      box: unionBox(lines.map((l) => l.line)),
      label: header.text,
      quality: 1,
      wordConfidence: wordConfidence(words),
      order: [header.pageIdx, header.lineIdx, 0],
    },
  };
}
