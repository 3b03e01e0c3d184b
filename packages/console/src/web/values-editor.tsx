/** The editor of a document's values, shared by the document's edit and the recognition's answer. */
import type { TagValue } from './model';

/** A table value as tab-separated lines, and back. */
export const tableToText = (rows: string[][]) => rows.map((r) => r.join('\t')).join('\n');
export const textToTable = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.length)
    .map((line) => line.split('\t'));

/** Inputs for every field (strings as text, tables as tab-separated lines), each with its error if any. */
export function ValuesEditor({
  values,
  onChange,
  idPrefix,
  errors = {},
}: {
  values: Record<string, TagValue>;
  onChange: (next: Record<string, TagValue>) => void;
  idPrefix: string;
  /** Tag → why the server refused its value. */
  errors?: Record<string, string>;
}) {
  return (
    <div class="editor-grid">
      {Object.entries(values).map(([tag, value]) => {
        const id = `${idPrefix}-${tag}`;
        const error = errors[tag];
        const described = [typeof value === 'string' ? '' : `${id}-hint`, error ? `${id}-error` : '']
          .filter(Boolean)
          .join(' ');
        return (
          <div class="field" key={tag}>
            <label for={id}>{tag}</label>
            {typeof value === 'string' ? (
              <input
                id={id}
                aria-invalid={error ? true : undefined}
                aria-describedby={described || undefined}
                value={value}
                onInput={(e) => onChange({ ...values, [tag]: (e.target as HTMLInputElement).value })}
              />
            ) : (
              <textarea
                id={id}
                rows={3}
                value={tableToText(value)}
                aria-describedby={described || undefined}
                aria-invalid={error ? true : undefined}
                onInput={(e) =>
                  onChange({ ...values, [tag]: textToTable((e.target as HTMLTextAreaElement).value) })
                }
              />
            )}
            {typeof value === 'string' ? null : (
              <small id={`${id}-hint`} class="hint">
                A table: one row per line, cells separated by tabs.
              </small>
            )}
            {error ? (
              <small id={`${id}-error`} class="field-error">
                {error}
              </small>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}
