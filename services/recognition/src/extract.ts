/**
 * The values of a recognised part: each field of its recognition form applied to the part's text
 * (DESIGN.md, "Forms"). Pure.
 *
 * - A tag whose kind in the form is `string` (or that the form does not list) gets the first group of
 *   the first match, trimmed; the pattern is case-insensitive.
 * - Tables: a tag whose kind in the form is `table` gets one row per match of its pattern (flags `gim`,
 *   so `^` and `$` anchor a line), the row being the match's groups in order, each trimmed (a group that
 *   did not take part gives ''). E.g. `^(\d+)\s+(.+?)\s+([0-9.,]+)$` reads "2 Widget 10.00" lines.
 * - A tag whose pattern finds nothing (or whose first group is empty) is left out, never set to ''.
 */
import type { TagKind, ValuesByTags } from '@docflow/contracts';
import type { z } from 'zod';
import type { RecoFormDef } from './classify';
import { fieldPattern } from './patterns';

/** Bounds of the contract's TagValue, so the result always validates as ValuesByTags. */
const MAX_STRING = 100_000;
const MAX_CELL = 10_000;
const MAX_ROWS = 1000;

export function extractValues(
  recoForm: RecoFormDef,
  text: string,
  tagKinds: Readonly<Record<string, z.infer<typeof TagKind>>> = {},
): ValuesByTags {
  const values: ValuesByTags = {};
  for (const [tag, source] of Object.entries(recoForm.fields)) {
    if (tagKinds[tag] === 'table') {
      const rows = extractTable(source, text);
      if (rows.length > 0) values[tag] = rows;
    } else {
      const value = fieldPattern(source)?.exec(text)?.[1]?.trim();
      if (value) values[tag] = value.slice(0, MAX_STRING);
    }
  }
  return values;
}

function extractTable(source: string, text: string): string[][] {
  const re = fieldPattern(source, true);
  if (!re) return [];
  const rows: string[][] = [];
  for (const m of text.matchAll(re)) {
    if (m[0] === '') continue;
    const cells = m.length > 1 ? m.slice(1) : [m[0]];
    rows.push(cells.map((c) => (c ?? '').trim().slice(0, MAX_CELL)));
    if (rows.length === MAX_ROWS) break;
  }
  return rows;
}
