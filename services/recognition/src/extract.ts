/**
 * The values of a recognised part: each pattern field of its recognition form applied to the part's
 * pages (DESIGN.md, "Forms"). Pure.
 *
 * - A tag whose kind in the form is `string` (or that the form does not list) gets the first group of
 *   the first match, trimmed; the pattern is case-insensitive. Pages are searched in order, each on its
 *   own, so a match does not span a page break (one pattern run covers at most one page's text).
 * - Tables: a tag whose kind in the form is `table` gets one row per match of its pattern (flags `im`,
 *   so `^` and `$` anchor a line), page after page, the row being the match's groups in order, each
 *   trimmed (a group that did not take part gives ''). E.g. `^(\d+)\s+(.+?)\s+([0-9.,]+)$` reads
 *   "2 Widget 10.00" lines.
 * - A tag whose pattern finds nothing (or whose first group is empty) is left out, never set to ''.
 */
import { fieldPattern, type TagKind, type ValuesByTags } from '@docflow/contracts';
import type { z } from 'zod';
import { runSteps, type Steps } from './pattern-steps';
import { everyMatch, firstMatch } from './patterns';
import type { RecoFormDef } from './reco-form';

/** Bounds of the contract's TagValue, so the result always validates as ValuesByTags. */
const MAX_STRING = 100_000;
const MAX_CELL = 10_000;
const MAX_ROWS = 1000;

type TagKinds = Readonly<Record<string, z.infer<typeof TagKind>>>;

/** `pages`: the part's page texts in order (a string is one page). */
export function extractValues(
  recoForm: RecoFormDef,
  pages: string | readonly string[],
  tagKinds: TagKinds = {},
): ValuesByTags {
  return runSteps(extractValuesSteps(recoForm, typeof pages === 'string' ? [pages] : pages, tagKinds));
}

/** extractValues in steps, one per pattern run (pattern-steps.ts). */
export function* extractValuesSteps(
  recoForm: RecoFormDef,
  pages: readonly string[],
  tagKinds: TagKinds = {},
): Steps<ValuesByTags> {
  const values: ValuesByTags = {};
  for (const [tag, field] of Object.entries(recoForm.fields)) {
    // Fields declared by type are read by the layout extractor (extract-fields.ts).
    const source = fieldPattern(field);
    if (source === undefined) continue;
    if (tagKinds[tag] === 'table') {
      const rows = yield* tableRows(source, pages);
      if (rows.length > 0) values[tag] = rows;
    } else {
      const value = (yield* firstValue(source, pages))?.trim();
      if (value) values[tag] = value.slice(0, MAX_STRING);
    }
  }
  return values;
}

/** The first group of the first match, searching page after page. */
function* firstValue(source: string, pages: readonly string[]): Steps<string | undefined> {
  for (const text of pages) {
    const match = firstMatch(text, source);
    yield;
    if (match) return match[1];
  }
  return undefined;
}

function* tableRows(source: string, pages: readonly string[]): Steps<string[][]> {
  const rows: string[][] = [];
  for (const text of pages) {
    for (const m of everyMatch(text, source, MAX_ROWS - rows.length)) {
      const cells = m.length > 1 ? m.slice(1) : [m[0]];
      rows.push(cells.map((c) => (c ?? '').trim().slice(0, MAX_CELL)));
    }
    yield;
    if (rows.length === MAX_ROWS) break;
  }
  return rows;
}
