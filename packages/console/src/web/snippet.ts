/**
 * A search result's snippet: the first passage of the document's text (values, tags, attachment names)
 * holding a searched word, cut into plain and matched parts. The parts are text, rendered as text
 * nodes and `<mark>` elements, so nothing of a document is ever read as markup.
 *
 * Words as the search API takes them: runs of letters and digits, case and accents ignored, the last
 * word also as a prefix (README, "Search").
 */
import type { Doc } from './model';

export interface SnippetPart {
  text: string;
  match: boolean;
}

const WORD = /[\p{L}\p{N}]+/gu;
const CONTEXT = 60;

/**
 * `text` in lower case without accents, and for each of its UTF-16 units the offset in `text` of the
 * character it came from (one more entry: `text`'s length), so a match maps back to the original.
 */
function fold(text: string): { folded: string; origin: number[] } {
  let folded = '';
  const origin: number[] = [];
  let at = 0;
  for (const c of text) {
    const f = c.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    for (let k = 0; k < f.length; k++) origin.push(at);
    folded += f;
    at += c.length;
  }
  origin.push(at);
  return { folded, origin };
}

export function searchWords(q: string): string[] {
  return Array.from(fold(q).folded.matchAll(WORD), (m) => m[0]);
}

/** The searchable texts of a document, in the order a reader meets them. */
function textsOf(doc: Doc): string[] {
  const texts: string[] = [];
  for (const value of Object.values(doc.valuesByTags ?? {})) {
    if (typeof value === 'string') texts.push(value);
    else for (const row of value) texts.push(row.join(' · '));
  }
  texts.push(...(doc._tags ?? []), ...(doc.filesList ?? []).map((f) => f.fileName));
  return texts.filter(Boolean);
}

/** The [start, end) ranges of `text`'s words that match `words` (the last one as a prefix too). */
function matches(text: string, words: string[]): [number, number][] {
  const last = words.length - 1;
  const { folded, origin } = fold(text);
  const ranges: [number, number][] = [];
  for (const m of folded.matchAll(WORD)) {
    const word = m[0];
    if (words.some((w, i) => word === w || (i === last && word.startsWith(w))))
      ranges.push([origin[m.index]!, origin[m.index + word.length]!]);
  }
  return ranges;
}

/** The snippet of `doc` for the search `q`: up to ~CONTEXT characters around the first hit, hits marked. */
export function snippetOf(doc: Doc, q: string): SnippetPart[] {
  const words = searchWords(q);
  if (!words.length) return [];
  for (const text of textsOf(doc)) {
    const ranges = matches(text, words);
    if (!ranges.length) continue;
    const from = Math.max(0, ranges[0]![0] - CONTEXT);
    const to = Math.min(text.length, ranges[0]![1] + CONTEXT * 2);
    const parts: SnippetPart[] = [];
    let at = from;
    for (const [start, end] of ranges) {
      if (start < at || end > to) continue;
      if (start > at) parts.push({ text: text.slice(at, start), match: false });
      parts.push({ text: text.slice(start, end), match: true });
      at = end;
    }
    if (at < to) parts.push({ text: text.slice(at, to), match: false });
    if (from > 0) parts.unshift({ text: '…', match: false });
    if (to < text.length) parts.push({ text: '…', match: false });
    return parts;
  }
  return [];
}
