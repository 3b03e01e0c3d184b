/** What people call a document: its form's title field, else the form's title and the creation date. Pure. */
import type { DocState } from './docForm';

/**
 * The value of the form's `titleField` when it is a non-empty string, else `<form title>, <YYYY-MM-DD>`
 * (the form's name for a document created before titles were recorded).
 */
export function documentTitle(s: DocState): string {
  const field = s.title?.field;
  const value = field === undefined ? undefined : s.valuesByTags[field];
  if (typeof value === 'string' && value.trim()) return value.trim();
  return `${s.title?.formTitle ?? s.form}, ${s.created.slice(0, 10)}`;
}
