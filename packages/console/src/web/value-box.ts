/**
 * Where a recognised value stands on its page, for the review to highlight it: the box recognition
 * recorded for the field (`fieldsByTags[tag].box`) when there is one, else the first run of the page's
 * words (in reading order) that spells the value. Pure.
 */
import type { Box, PageLayout } from './model';

/** Case and the punctuation that clings to words (`1,234.50,` `No.:`) do not count. */
const norm = (word: string) => word.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

/**
 * @example valueBox('INV-2026-001', undefined, layout) // the box of that word on the page
 */
export function valueBox(
  value: string,
  field: { box?: Box; pageIdx?: number } | undefined,
  layout: PageLayout | undefined,
): Box | undefined {
  if (field?.box && (field.pageIdx === undefined || field.pageIdx === layout?.pageIdx)) return field.box;
  const wanted = value.split(/\s+/).map(norm).filter(Boolean);
  if (!layout || wanted.length === 0) return undefined;
  const words = layout.lines.flatMap((l) => l.words);
  for (let i = 0; i + wanted.length <= words.length; i++) {
    const run = words.slice(i, i + wanted.length);
    if (run.every((w, k) => norm(w.text) === wanted[k])) return union(run.map((w) => w.box));
  }
  return undefined;
}

function union(boxes: Box[]): Box {
  return [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
}
