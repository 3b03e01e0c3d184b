/** The editor of a document's values, shared by the document's edit and the recognition's answer. */
import type { TagValue } from './model';

/** A table value as tab-separated lines, and back. */
export const tableToText = (rows: string[][]) => rows.map((r) => r.join('\t')).join('\n');
export const textToTable = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.length)
    .map((line) => line.split('\t'));

/** Inputs for every field (strings as text, tables as tab-separated lines) and the tags. */
export function ValuesEditor({
  values,
  onChange,
  idPrefix,
}: {
  values: Record<string, TagValue>;
  onChange: (next: Record<string, TagValue>) => void;
  idPrefix: string;
}) {
  return (
    <div class="editor-grid">
      {Object.entries(values).map(([tag, value]) => {
        const id = `${idPrefix}-${tag}`;
        return (
          <div class="field" key={tag}>
            <label for={id}>{tag}</label>
            {typeof value === 'string' ? (
              <input
                id={id}
                value={value}
                onInput={(e) => onChange({ ...values, [tag]: (e.target as HTMLInputElement).value })}
              />
            ) : (
              <textarea
                id={id}
                rows={3}
                value={tableToText(value)}
                aria-describedby={`${id}-hint`}
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
          </div>
        );
      })}
    </div>
  );
}
