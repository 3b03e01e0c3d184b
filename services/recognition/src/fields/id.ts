/**
 * Identifiers such as invoice or customer numbers: the first token after a label that holds a digit
 * (`INV-2024-001`, `#4711`, `993548900`, `2024/17`), without a leading `#`, `:` or `No.`. Pure. A token
 * that is a whole date is an unsure id (the label may have been `Invoice` before a date), as is one in
 * parentheses.
 */
import { findDates } from './date';
import { execAll, type ValueMatch } from './value-match';

const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}\-/._]*[\p{L}\p{N}]|\p{N}/gu;

export function findIds(text: string): ValueMatch[] {
  const found: ValueMatch[] = [];
  for (const m of execAll(TOKEN, text)) {
    const token = m[0].replace(/[.]+$/, '');
    if (!/\p{N}/u.test(token) || token.length > 40) {
      continue;
    }
    const start = m.index!;
    const end = start + token.length;
    const date = findDates(token)[0];
    // A whole date, or a code in parentheses (`Gutschrift (389)`: a document type), is an unsure id.
    const bracketed = text[start - 1] === '(' && text[end] === ')';
    const quality = date && date.start === 0 && date.end === token.length ? 0.3 : bracketed ? 0.5 : 1;
    found.push({ value: token, start, end, quality });
  }
  return found;
}
