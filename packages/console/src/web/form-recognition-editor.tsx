/**
 * A form's recognition rules as inputs: each recognition form's id, name, keywords (one a line) and,
 * per field, the pattern whose first group is the value; the server's refusals (a pattern RE2 cannot
 * run, a missing keyword) shown beside the input they concern.
 */
import { issuesUnder, parseDefinition, type SectionEditorProps, withMember } from './form-definition';

interface RecognitionForm {
  id: string;
  name: string;
  match: string[];
  fields: Record<string, string>;
}

/** The definition's recognition forms when they have the shape this editor edits; undefined otherwise. */
function formsOf(definition: Record<string, unknown>): RecognitionForm[] | undefined {
  const recognition = (definition.recognition ?? { forms: [] }) as { forms?: unknown };
  if (!Array.isArray(recognition.forms)) return undefined;
  const ok = recognition.forms.every(
    (f: Partial<RecognitionForm> | null) =>
      typeof f === 'object' &&
      f !== null &&
      Array.isArray(f.match ?? []) &&
      typeof (f.fields ?? {}) === 'object' &&
      !Array.isArray(f.fields),
  );
  return ok
    ? recognition.forms.map((f: Partial<RecognitionForm>) => ({
        id: f.id ?? '',
        name: f.name ?? '',
        match: f.match ?? [],
        fields: f.fields ?? {},
      }))
    : undefined;
}

function Problem({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <small id={id} class="field-error">
      {message}
    </small>
  ) : null;
}

/** An input of a recognition form with its label and its error in place. */
function Input(props: {
  id: string;
  label: string;
  value: string;
  error: string | undefined;
  onValue: (value: string) => void;
  lines?: boolean;
}) {
  const common = {
    id: props.id,
    value: props.value,
    'aria-invalid': props.error ? true : undefined,
    'aria-describedby': props.error ? `${props.id}-error` : undefined,
    onInput: (e: Event) => props.onValue((e.target as HTMLInputElement).value),
  };
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.lines ? <textarea rows={3} {...common} /> : <input {...common} />}
      <Problem id={`${props.id}-error`} message={props.error} />
    </div>
  );
}

export function FormRecognitionEditor({ text, onText, issues }: SectionEditorProps) {
  const definition = parseDefinition(text);
  const forms = definition && formsOf(definition);
  if (!definition || !forms)
    return <p class="hint">The recognition rules can be edited here once the JSON has their shape.</p>;
  const errors = issuesUnder(issues, 'body.recognition.forms.');
  const tags = Object.keys((definition.tags ?? {}) as Record<string, string>);
  const write = (next: RecognitionForm[]) =>
    onText(withMember(definition, 'recognition', next.length ? { forms: next } : undefined));
  /** The errors of a form's keywords, of the list or of one keyword (`0.match.2`). */
  const keywordErrors = (i: number) =>
    Object.entries(errors)
      .filter(([key]) => key === `${i}.match` || key.startsWith(`${i}.match.`))
      .map(([key, message]) =>
        key === `${i}.match` ? message : `line ${Number(key.split('.')[2]) + 1}: ${message}`,
      )
      .join('; ') || undefined;
  const change = (i: number, form: RecognitionForm) => write(forms.map((f, j) => (j === i ? form : f)));

  return (
    <fieldset>
      <legend>Recognition</legend>
      {forms.map((form, i) => {
        const n = i + 1;
        const at = (member: string) => errors[`${i}.${member}`];
        const rules = Object.entries(form.fields);
        const setRules = (next: [string, string][]) =>
          change(i, { ...form, fields: Object.fromEntries(next) });
        const unused = tags.find((t) => !(t in form.fields));
        return (
          <fieldset key={i}>
            <legend>Recognition form {n}</legend>
            <div class="row">
              <Input
                id={`rf-${i}-id`}
                label={`Id of recognition form ${n}`}
                value={form.id}
                error={at('id')}
                onValue={(id) => change(i, { ...form, id })}
              />
              <Input
                id={`rf-${i}-name`}
                label={`Name of recognition form ${n}`}
                value={form.name}
                error={at('name')}
                onValue={(name) => change(i, { ...form, name })}
              />
            </div>
            <Input
              id={`rf-${i}-match`}
              label={`Keywords of recognition form ${n} (one a line)`}
              value={form.match.join('\n')}
              error={keywordErrors(i)}
              lines
              // Not trimmed while typing (a new line starts empty); an empty keyword is refused at save.
              onValue={(typed) => change(i, { ...form, match: typed ? typed.split('\n') : [] })}
            />
            {rules.map(([tag, pattern], r) => {
              const id = `rf-${i}-field-${r}`;
              return (
                // Keyed by place: changing a rule's field must not remount (and unfocus) it.
                <div class="row" key={r}>
                  <div class="field">
                    <label for={`${id}-tag`}>Field of rule {r + 1}</label>
                    <select
                      id={`${id}-tag`}
                      value={tag}
                      onChange={(e) =>
                        setRules(
                          rules.map((rule, j) =>
                            j === r ? [(e.target as HTMLSelectElement).value, pattern] : rule,
                          ),
                        )
                      }
                    >
                      {[tag, ...tags.filter((t) => t !== tag && !(t in form.fields))].map((t) => (
                        <option key={t} value={t}>
                          {t}
                        </option>
                      ))}
                    </select>
                  </div>
                  <Input
                    id={`${id}-pattern`}
                    label={`Pattern of ${tag} (its first group is the value)`}
                    value={pattern}
                    error={at(`fields.${tag}`)}
                    onValue={(next) => setRules(rules.map((rule, j) => (j === r ? [tag, next] : rule)))}
                  />
                  <button
                    type="button"
                    class="secondary"
                    onClick={() => setRules(rules.filter((_, j) => j !== r))}
                  >
                    Remove the rule of {tag}
                  </button>
                </div>
              );
            })}
            <Problem id={`rf-${i}-fields-error`} message={at('fields')} />
            <div class="row">
              {unused ? (
                <button type="button" class="secondary" onClick={() => setRules([...rules, [unused, '']])}>
                  Add a field rule to recognition form {n}
                </button>
              ) : null}
              <button type="button" class="secondary" onClick={() => write(forms.filter((_, j) => j !== i))}>
                Remove recognition form {n}
              </button>
            </div>
          </fieldset>
        );
      })}
      <button
        type="button"
        class="secondary"
        onClick={() => write([...forms, { id: `form${forms.length + 1}`, name: '', match: [], fields: {} }])}
      >
        Add a recognition form
      </button>
    </fieldset>
  );
}
