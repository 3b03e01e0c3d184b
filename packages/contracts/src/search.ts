/**
 * Full-text search of the views (`?q=`): what a word of a search is. The document service indexes
 * text with SQLite FTS5's `unicode61` tokenizer, which splits at every character that is not a letter,
 * a digit or a mark; a search is cut into words the same way, so no character of it is ever read as
 * FTS5 query syntax.
 */

/** Characters of `q` at most. */
export const SEARCH_MAX_CHARS = 200;

/** The words of a search, in order: its runs of letters, digits and marks. */
export function searchWords(q: string): string[] {
  return q.match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
}
