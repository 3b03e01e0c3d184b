/**
 * Full-text search of the views (`?q=`): the text the search table keeps of a document, and a search
 * turned into an FTS5 query. The table (`view_search`, schema.ts) has two columns: `fields` (the
 * values, tags and attachment names) and `text` (the recognised text of the attachments); a match in
 * `fields` weighs twice as much in the ranking (BM25).
 */
import { searchWords } from '@docflow/contracts';
import type { DocState } from '../docForm';

/** The BM25 weights of `fields` and `text`, in the table's column order. */
export const SEARCH_WEIGHTS = [2, 1] as const;

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
 * The FTS5 query of a search: each word a quoted string (a word has no `"`, so nothing in it is query
 * syntax), all of them required, the last one also as a prefix (what a user still types).
 */
export function matchExpression(q: string): string {
  const words = searchWords(q);
  return words.map((word, i) => `"${word}"${i === words.length - 1 ? '*' : ''}`).join(' ');
}
