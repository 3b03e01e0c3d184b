/** A problem's `errors` (RFC 9457 extension) keyed by field, so a page shows each beside its input. */
import { ApiError } from './api';

/**
 * The messages of a failure whose pointer starts with `prefix`, keyed by the rest of the pointer:
 * `fieldErrors(err, 'docForm.valuesByTags.')` → `{ subject: 'tag subject holds a string' }`.
 */
export function fieldErrors(error: unknown, prefix: string): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const found: Record<string, string> = {};
  for (const issue of error.errors) {
    if (!issue.pointer?.startsWith(prefix)) continue;
    const key = issue.pointer.slice(prefix.length);
    found[key] = found[key] ? `${found[key]}; ${issue.message}` : issue.message;
  }
  return found;
}
