/**
 * Free text after a label: the rest of the line without the separators that follow labels
 * (`: `, `- `), e.g. a reference or a subject. Pure.
 */
import type { ValueMatch } from './value-match';

export function findText(text: string): ValueMatch[] {
  const lead = /^[\s:#=\-–—]*/u.exec(text)![0].length;
  const value = text.slice(lead).trim();
  if (!/[\p{L}\p{N}]/u.test(value)) return [];
  return [{ value, start: lead, end: lead + value.length, quality: 0.9 }];
}
