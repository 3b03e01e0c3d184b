/**
 * A new document from a form: the form's own fields (listed by `GET /api/v2/forms`), tags, an optional
 * workflow start and files, with upload progress. After a create the page is blank again, and the same
 * values a second time in one visit ask for a second click before they make a duplicate.
 */
import { useState } from 'preact/hooks';
import { enc, get, upload } from './api';
import { fieldErrors } from './field-errors';
import type { Doc, FormSummary, TagValue } from './model';
import { docLink, ErrorBox, Loading, useAction, useLoad } from './ui';
import { ValuesEditor } from './values-editor';

const STARTS = [
  ['', 'Register only'],
  ['100', 'Start approval'],
  ['105', 'Start sign'],
  ['106', 'Start execution'],
  ['107', 'Archive at once'],
  ['108', 'File in the repository'],
] as const;

/** Every field of the form, empty: a string tag as '', a table as no rows. */
const blankValues = (form: FormSummary | undefined): Record<string, TagValue> =>
  Object.fromEntries(
    Object.entries(form?.tags ?? {}).map(([tag, kind]) => [tag, kind === 'table' ? [] : '']),
  );

/** The values worth sending: a table's empty rows and a field left empty are left out. */
const filled = (values: Record<string, TagValue>) =>
  Object.fromEntries(
    Object.entries(values)
      .map(([tag, v]): [string, TagValue] => [
        tag,
        typeof v === 'string' ? v : v.filter((row) => row.some((cell) => cell !== '')),
      ])
      .filter(([, v]) => (typeof v === 'string' ? v !== '' : v.length)),
  );

export function CreatePage() {
  const forms = useLoad(() => get<FormSummary[]>('/api/v2/forms'), 'forms');
  const [formName, setFormName] = useState('');
  const [values, setValues] = useState<Record<string, TagValue>>({});
  /** Bumped after a create: the form's uncontrolled inputs (tags, workflow, files) mount blank again. */
  const [round, setRound] = useState(0);
  const [progress, setProgress] = useState<{ sent: number; total: number }>();
  const [created, setCreated] = useState<{ doc: Doc; xError: string }>();
  /** What the last create in this visit sent, and a pending warning that the next one repeats it. */
  const [lastSent, setLastSent] = useState<{ key: string; id: string }>();
  const [duplicateOf, setDuplicateOf] = useState('');
  const [run, state] = useAction();

  const chosen = forms.data?.find((f) => f.name === formName);
  const choose = (name: string) => {
    setFormName(name);
    setValues(blankValues(forms.data?.find((f) => f.name === name)));
    state.clear();
  };

  const submit = (e: Event) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget as HTMLFormElement);
    const valuesByTags = filled(values);
    const _tags = String(data.get('tags') ?? '')
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    const start = String(data.get('start') ?? '');
    const files = data.getAll('files').filter((f): f is File => f instanceof File && Boolean(f.name));
    const key = JSON.stringify([formName, valuesByTags, _tags, start, files.map((f) => [f.name, f.size])]);
    if (lastSent?.key === key && duplicateOf !== lastSent.id) {
      setDuplicateOf(lastSent.id);
      return;
    }
    run(async () => {
      setCreated(undefined);
      const body = new FormData();
      body.append('docForm', JSON.stringify({ valuesByTags, _tags }));
      if (start) body.append('docResponse', JSON.stringify({ taskstatus: Number(start) }));
      for (const file of files) body.append('files', file, file.name);
      const query = data.get('allowDupl') ? '' : '?allowDupl=false';
      setProgress({ sent: 0, total: 0 });
      const answer = await upload<Doc>(`/api/v2/docForm/form/${enc(formName)}${query}`, body, (sent, total) =>
        setProgress({ sent, total }),
      );
      setCreated({ doc: answer.body, xError: answer.headers.get('x-error') ?? '' });
      setLastSent({ key, id: answer.body._id_web });
      setDuplicateOf('');
      setValues(blankValues(chosen));
      setRound((r) => r + 1);
    });
  };

  if (!forms.data) return forms.error ? <ErrorBox error={forms.error} /> : <Loading what="the forms" />;
  return (
    <>
      <h1>New document</h1>
      <div class="field">
        <label for="new-form">Form</label>
        <select
          id="new-form"
          value={formName}
          onChange={(e) => choose((e.target as HTMLSelectElement).value)}
        >
          <option value="">Choose a form…</option>
          {forms.data.map((f) => (
            <option key={f.name} value={f.name}>
              {f.title} ({f.name})
            </option>
          ))}
        </select>
      </div>
      {chosen ? (
        <form key={`${formName}-${round}`} class="stack" onSubmit={submit} aria-label="New document">
          <fieldset>
            <legend>Fields of {chosen.title}</legend>
            {Object.keys(values).length ? (
              <ValuesEditor
                values={values}
                onChange={(next) => {
                  setValues(next);
                  setDuplicateOf('');
                }}
                idPrefix="new"
                errors={fieldErrors(state.error, 'docForm.valuesByTags.')}
              />
            ) : (
              <p class="muted">This form has no fields.</p>
            )}
          </fieldset>
          <div class="field">
            <label for="new-tags">Tags (comma-separated)</label>
            <input id="new-tags" name="tags" />
          </div>
          <div class="field">
            <label for="new-start">Workflow</label>
            <select id="new-start" name="start">
              {STARTS.map(([code, label]) => (
                <option key={code} value={code}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="new-files">Files</label>
            <input id="new-files" name="files" type="file" multiple />
          </div>
          <label class="check">
            <input type="checkbox" name="allowDupl" defaultChecked /> Allow files already attached to another
            document
          </label>
          {duplicateOf ? (
            <p class="problem" role="alert">
              These are the same values as <a href={docLink(duplicateOf)}>{duplicateOf}</a>, created a moment
              ago. Press Create again to make a second document anyway.
            </p>
          ) : null}
          <div class="actions">
            <button type="submit" disabled={state.busy}>
              {duplicateOf ? 'Create again' : 'Create'}
            </button>
          </div>
          {progress && state.busy ? (
            <div class="field">
              <label for="upload-progress">Upload</label>
              <progress id="upload-progress" max={progress.total || 1} value={progress.sent} />
              <span>
                {(progress.sent / 1048576).toFixed(1)} of {(progress.total / 1048576).toFixed(1)} MiB
              </span>
            </div>
          ) : null}
          <ErrorBox error={state.error} />
        </form>
      ) : null}
      {created ? (
        <p class={created.xError ? 'problem' : 'notice'} role="status">
          Created <a href={docLink(created.doc._id_web)}>{created.doc._id_web}</a>
          {created.xError ? ` — but the workflow action failed: ${created.xError}` : '.'}
        </p>
      ) : null}
    </>
  );
}
