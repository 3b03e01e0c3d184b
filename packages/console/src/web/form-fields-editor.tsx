/**
 * The fields (`tags`) of a form definition as inputs, a name and a kind per field, kept in step with
 * the definition's JSON: the JSON stays the whole truth (workflow, recognition), this edits its tags.
 */

import { parseDefinition } from './form-definition';

const KINDS = ['string', 'table'] as const;

type Tags = Record<string, string>;

/** The definition's object and its tags, or undefined while the JSON is not an object with tags. */
function parse(text: string): { definition: Record<string, unknown>; tags: Tags } | undefined {
  const definition = parseDefinition(text);
  const tags = definition?.tags ?? {};
  if (!definition || typeof tags !== 'object' || tags === null || Array.isArray(tags)) return undefined;
  return { definition, tags: tags as Tags };
}

export function FormFieldsEditor({ text, onText }: { text: string; onText: (next: string) => void }) {
  const parsed = parse(text);
  if (!parsed)
    return <p class="hint">The fields can be edited here once the definition is a JSON object with tags.</p>;
  const entries = Object.entries(parsed.tags);
  const write = (next: [string, string][]) =>
    onText(JSON.stringify({ ...parsed.definition, tags: Object.fromEntries(next) }, null, 2));
  const change = (i: number, entry: [string, string]) => write(entries.map((e, j) => (j === i ? entry : e)));
  const unused = () => {
    let n = entries.length + 1;
    while (`field${n}` in parsed.tags) n++;
    return `field${n}`;
  };
  return (
    <fieldset>
      <legend>Fields</legend>
      {entries.map(([tag, kind], i) => (
        // Keyed by place, not name: renaming a field must not remount (and unfocus) its input.
        <div class="row" key={i}>
          <label>
            Name of field {i + 1}
            <input value={tag} onInput={(e) => change(i, [(e.target as HTMLInputElement).value, kind])} />
          </label>
          <label>
            Kind of field {i + 1}
            <select value={kind} onChange={(e) => change(i, [tag, (e.target as HTMLSelectElement).value])}>
              {KINDS.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
          </label>
          <button type="button" class="secondary" onClick={() => write(entries.filter((_, j) => j !== i))}>
            Remove field {tag}
          </button>
        </div>
      ))}
      <button type="button" class="secondary" onClick={() => write([...entries, [unused(), 'string']])}>
        Add a field
      </button>
    </fieldset>
  );
}
