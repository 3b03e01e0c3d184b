/** The editor of a document's values, shared by the document's edit and the recognition's answer. */
import type { TagValue } from './model';
import { TableEditor } from './table-editor';

/** Inputs for every field (strings as text, tables as a grid of cells), each with its error if any. */
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
        const described = error ? `${id}-error` : undefined;
        return (
          <div class="field" key={tag}>
            {typeof value === 'string' ? (
              <>
                <label for={id}>{tag}</label>
                <input
                  id={id}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={described}
                  value={value}
                  onInput={(e) => onChange({ ...values, [tag]: (e.target as HTMLInputElement).value })}
                />
              </>
            ) : (
              <TableEditor
                id={id}
                label={tag}
                rows={value}
                describedBy={described}
                invalid={Boolean(error)}
                onChange={(rows) => onChange({ ...values, [tag]: rows })}
              />
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
