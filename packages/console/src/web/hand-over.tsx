/**
 * Handing an open task to another person (issue 36): whom to (picked by name, e-mail or id) and why,
 * sent as `POST …/docResponse/{respId}/reassign`; the server's refusal shows beside the form.
 */
import { useState } from 'preact/hooks';
import { call, enc } from './api';
import type { Doc } from './model';
import { PersonPicker } from './person-picker';
import type { TaskLine } from './tasks';
import { ErrorBox, useAction } from './ui';

export function HandOverForm({
  doc,
  task,
  assigneeName,
  onDone,
  onCancel,
}: {
  doc: Doc;
  task: TaskLine;
  assigneeName: string;
  onDone: (doc: Doc, message: string) => void;
  onCancel: () => void;
}) {
  const [to, setTo] = useState('');
  const [reason, setReason] = useState('');
  const [run, state] = useAction();
  const id = `hand-over-${task.respId}`;
  const submit = (e: Event) => {
    e.preventDefault();
    run(async () => {
      const { body } = await call<Doc>(
        'POST',
        `/api/v2/docForm/${enc(doc._id)}/docResponse/${task.respId}/reassign`,
        { to: to.trim(), reason: reason.trim() },
      );
      onDone(body, `${assigneeName}’s ${task.phase} task was handed to ${to.trim()}.`);
    });
  };
  return (
    <form class="hand-over" onSubmit={submit} aria-label={`Reassign ${assigneeName}’s task`}>
      <div class="field">
        <label for={`${id}-to`}>Hand {assigneeName}’s task to (name, e-mail or id)</label>
        <PersonPicker id={`${id}-to`} label="the new assignee" value={to} onChange={setTo} required />
      </div>
      <div class="field">
        <label for={`${id}-reason`}>Reason</label>
        <input
          id={`${id}-reason`}
          value={reason}
          required
          maxLength={500}
          placeholder="On holiday until Monday"
          onInput={(e) => setReason((e.target as HTMLInputElement).value)}
        />
      </div>
      <div class="actions">
        <button type="submit" disabled={state.busy || !to.trim() || !reason.trim()}>
          Reassign
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <ErrorBox error={state.error} />
    </form>
  );
}
