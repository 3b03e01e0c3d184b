/**
 * Full-text search of the views (`?q=`): the text the search table keeps of a document, and a search
 * turned into FTS5 queries. The table (`view_search`, schema.ts) has two columns: `fields` (the
 * values, tags and attachment names) and `text` (the recognised text of the attachments); a match in
 * `fields` weighs twice as much in the ranking (BM25).
 */
import { searchWords } from '@docflow/contracts';
import type { DocState } from '../documents/docForm';

/** The BM25 weights of `fields` and `text`, in the table's column order. */
export const SEARCH_WEIGHTS = [2, 1] as const;

/**
 * A term found in at least this many documents is common. FTS5's bm25() walks every document of each
 * term of its query (for the term's weight, IDF) on every query: 250 ms for a term of every document at
 * 1,000,000. So a search ranks by its rarer terms only when it has both kinds (see planSearch); a
 * common term still has to match.
 */
export const COMMON_TERM_DOCS = 10_000;

export interface SearchText {
  fields: string;
  text: string;
}

/** What the search table keeps of a document. */
export function searchTextOf(doc: DocState): SearchText {
  const values = Object.values(doc.valuesByTags).flatMap((v) => (typeof v === 'string' ? [v] : v.flat()));
  return {
    fields: [...values, ...doc.tags, ...doc.files.map((f) => f.fileName)].join('\n'),
    text: doc.recoText.join('\n'),
  };
}

/**
 * The FTS5 terms of a search: each word a quoted string (a word has no `"`, so nothing in it is query
 * syntax), the last one also as a prefix (what a user still types). A document matches when it holds
 * every term (`matchExpression`).
 */
export function searchTerms(q: string): string[] {
  const words = searchWords(q);
  return words.map((word, i) => `"${word}"${i === words.length - 1 ? '*' : ''}`);
}

/** The FTS5 query requiring every term. */
export const matchExpression = (terms: readonly string[]): string => terms.join(' ');
