/** Where in a JSON text a validation issue points, so the forms editor shows it in place. */

/**
 * The line of `text` where the member that `pointer` names is written (`body.workflow.dueDays`, as the
 * API's problem details say, or `/workflow/dueDays`): each name is looked for after the previous one;
 * array indexes are skipped. Undefined when the first name is not found.
 */
export function lineOf(text: string, pointer: string): number | undefined {
  let at = -1;
  for (const segment of pointer
    .replace(/^body\.?/, '')
    .split(/[./]/)
    .filter(Boolean)) {
    if (/^\d+$/.test(segment)) continue;
    const found = text.indexOf(`"${segment}"`, at + 1);
    if (found < 0) break;
    at = found;
  }
  return at < 0 ? undefined : text.slice(0, at).split('\n').length;
}
