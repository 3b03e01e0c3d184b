/**
 * A form definition's JSON as the Forms page's editors share it: each edits one part (fields,
 * workflow, recognition) of the parsed object and writes the whole back, so the JSON stays the truth.
 */
import type { FieldIssue } from './api';

/** The definition's object, or undefined while the JSON is no object. */
export function parseDefinition(text: string): Record<string, unknown> | undefined {
  try {
    const definition = JSON.parse(text) as unknown;
    if (typeof definition !== 'object' || definition === null || Array.isArray(definition)) return undefined;
    return definition as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The definition with `key` set to `value` (left out when undefined), as the editor's JSON. */
export function withMember(definition: Record<string, unknown>, key: string, value: unknown): string {
  const { [key]: _old, ...rest } = definition;
  return JSON.stringify(value === undefined ? rest : { ...rest, [key]: value }, null, 2);
}

/**
 * The messages of the issues under `prefix` (`body.workflow.`), keyed by the rest of their pointer
 * (`approval.stages.0.participants.1`), so an editor shows each beside its input.
 */
export function issuesUnder(issues: readonly FieldIssue[], prefix: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const issue of issues) {
    const pointer = issue.pointer?.replace(/^\//, 'body.').replaceAll('/', '.');
    if (!pointer?.startsWith(prefix)) continue;
    const key = pointer.slice(prefix.length);
    found[key] = found[key] ? `${found[key]}; ${issue.message}` : issue.message;
  }
  return found;
}

/** What an editor of one section of the form definition takes: the definition's JSON and its problems. */
export interface SectionEditorProps {
  text: string;
  onText: (next: string) => void;
  issues: readonly FieldIssue[];
}
