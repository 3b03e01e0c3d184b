/** The editor of a document's values, shared by the document's edit and the recognition's answer. */
import type { ComponentChild } from 'preact';
import type { TagValue } from './model';
import { TableEditor } from './table-editor';

/** What stands under a value (the recognition review's confidence mark), describing its input; `flagged` marks the field for checking. */
export interface FieldMark {
  mark: ComponentChild;
  flagged: boolean;
}

/** Inputs for every field (strings as text, tables as a grid of cells), each with its error if any. */
export function ValuesEditor({
  values,
  onChange,
  idPrefix,
  errors = {},
  marks = {},
}: {
  values: Record<string, TagValue>;
  onChange: (next: Record<string, TagValue>) => void;
  idPrefix: string;
  /** Tag → why the server refused its value. */
  errors?: Record<string, string>;
  /** Tag → its mark. */
  marks?: Record<string, FieldMark>;
}) {
  return (
    <div class="editor-grid">
      {Object.entries(values).map(([tag, value]) => {
        const id = `${idPrefix}-${tag}`;
        const error = errors[tag];
        const mark = marks[tag];
        const described =
          [error ? `${id}-error` : '', mark ? `${id}-mark` : ''].filter(Boolean).join(' ') || undefined;
        return (
          <div class={mark?.flagged ? 'field flagged' : 'field'} key={tag}>
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
            {mark ? (
              <div id={`${id}-mark`} class="field-mark">
                {mark.mark}
              </div>
            ) : null}
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
