/** A new document from a form: field values, tags, an optional workflow start and files, with upload progress. */
import { useState } from 'preact/hooks';
import { enc, upload } from './api';
import type { Doc } from './model';
import { docLink, ErrorBox, useAction } from './ui';

const STARTS = [
  ['', 'Register only'],
  ['100', 'Start approval'],
  ['105', 'Start sign'],
  ['106', 'Start execution'],
  ['107', 'Archive at once'],
  ['108', 'File in the repository'],
] as const;

interface Row {
  tag: string;
  value: string;
}

export function CreatePage() {
  const [rows, setRows] = useState<Row[]>([{ tag: '', value: '' }]);
  const [progress, setProgress] = useState<{ sent: number; total: number }>();
  const [created, setCreated] = useState<{ doc: Doc; xError: string }>();
  const [run, state] = useAction();

  const submit = (e: Event) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget as HTMLFormElement);
    run(async () => {
      setCreated(undefined);
      const valuesByTags = Object.fromEntries(
        rows.filter((r) => r.tag.trim()).map((r) => [r.tag.trim(), r.value]),
      );
      const _tags = String(data.get('tags') ?? '')
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
      const body = new FormData();
      body.append('docForm', JSON.stringify({ valuesByTags, _tags }));
      const start = String(data.get('start') ?? '');
      if (start) body.append('docResponse', JSON.stringify({ taskstatus: Number(start) }));
      for (const file of data.getAll('files'))
        if (file instanceof File && file.name) body.append('files', file, file.name);
      const query = data.get('allowDupl') ? '' : '?allowDupl=false';
      setProgress({ sent: 0, total: 0 });
      const answer = await upload<Doc>(
        `/api/v2/docForm/form/${enc(String(data.get('form')))}${query}`,
        body,
        (sent, total) => setProgress({ sent, total }),
      );
      setCreated({ doc: answer.body, xError: answer.headers.get('x-error') ?? '' });
    });
  };
  const setRow = (i: number, patch: Partial<Row>) =>
    setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  return (
    <>
      <h1>New document</h1>
      <form class="stack" onSubmit={submit} aria-label="New document">
        <div class="field">
          <label for="new-form">Form</label>
          <input id="new-form" name="form" required list="known-forms" placeholder="invoice" />
          <datalist id="known-forms">
            <option value="memo" />
            <option value="invoice" />
            <option value="contract" />
          </datalist>
        </div>
        <fieldset>
          <legend>Field values</legend>
          {rows.map((r, i) => (
            <div class="row" key={i}>
              <label>
                Tag
                <input
                  value={r.tag}
                  onInput={(e) => setRow(i, { tag: (e.target as HTMLInputElement).value })}
                />
              </label>
              <label>
                Value
                <input
                  value={r.value}
                  onInput={(e) => setRow(i, { value: (e.target as HTMLInputElement).value })}
                />
              </label>
            </div>
          ))}
          <button type="button" class="secondary" onClick={() => setRows([...rows, { tag: '', value: '' }])}>
            Add a field
          </button>
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
          <input type="checkbox" name="allowDupl" checked /> Allow files already attached to another document
        </label>
        <div class="actions">
          <button type="submit" disabled={state.busy}>
            Create
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
      {created ? (
        <p class={created.xError ? 'problem' : 'notice'} role="status">
          Created <a href={docLink(created.doc._id_web)}>{created.doc._id_web}</a>
          {created.xError ? ` — but the workflow action failed: ${created.xError}` : '.'}
        </p>
      ) : null}
    </>
  );
}
