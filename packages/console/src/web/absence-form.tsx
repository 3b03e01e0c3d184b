/**
 * The person's own absence (issue 36): a deputy and a period, sent as `PUT /api/v2/me/absence`. Tasks
 * that open for them in [from, to) go to the deputy, on their behalf; a `to` now ends it.
 */
import type { components } from '@docflow/client/openapi';
import { useState } from 'preact/hooks';
import { accountNamed } from './account-lookup';
import { ApiError, call, enc, get } from './api';
import { formatTime } from './model';
import { PersonPicker } from './person-picker';
import { ErrorBox, Loading, SaveOutcome, useAction, useLoad } from './ui';

type Person = components['schemas']['Person'];

/** `2026-11-27T09:30` (a datetime-local input) in the browser's time zone ↔ ISO 8601 UTC. */
const toLocalInput = (iso: string | undefined) => {
  if (!iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocalInput = (value: string) => (value ? new Date(value).toISOString() : '');
const ZONE = new Intl.DateTimeFormat(undefined, { timeZoneName: 'short' })
  .formatToParts(new Date())
  .find((p) => p.type === 'timeZoneName')?.value;

/**
 * The deputy as the server takes it: a `usr-` id or an e-mail as typed (anyone may name one), or the
 * id of a name looked up (administrators may look people up by name).
 */
async function deputyRef(typed: string): Promise<string> {
  if (typed.startsWith('usr-') || typed.includes('@')) return typed;
  try {
    return (await accountNamed(typed))._id_sys;
  } catch (err) {
    if (err instanceof ApiError && err.status === 403)
      throw new ApiError(
        403,
        'Only administrators can look people up by name',
        'give your deputy’s e-mail or usr- id',
      );
    throw err;
  }
}

function AbsenceNow({ deputy, names }: { deputy: Person['deputy']; names: string }) {
  if (!deputy.from || !deputy.to) return <p class="muted">No absence set.</p>;
  const ended = Date.parse(deputy.to) <= Date.now();
  return (
    <p>
      {ended ? 'Your last absence' : 'You are away'} from {formatTime(deputy.from)} to {formatTime(deputy.to)}
      {ended ? ' (ended).' : `: tasks arriving then go to ${names}.`}
    </p>
  );
}

export function AbsenceForm({ personId }: { personId: string }) {
  const person = useLoad(() => get<Person>(`/api/v2/person/${enc(personId)}`), personId);
  const deputyName = useLoad(async () => {
    const id = person.data?.deputy.id;
    if (!id) return '';
    const d = await get<Person>(`/api/v2/person/${enc(id)}`).catch(() => undefined);
    return d ? `${d.name_first} ${d.name_last}`.trim() || d.email : id;
  }, person.data?.deputy.id ?? '');
  const [run, state] = useAction();
  const [saved, setSaved] = useState('');
  if (!person.data) return person.error ? <ErrorBox error={person.error} /> : <Loading what="your absence" />;
  const { deputy } = person.data;
  const send = (typed: string, from: string, to: string, message: string) => {
    setSaved('');
    run(async () => {
      const deputy = await deputyRef(typed);
      await call<Person>('PUT', '/api/v2/me/absence', { deputy, from, to });
      person.reload();
      setSaved(message);
    });
  };
  const save = (e: Event) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget as HTMLFormElement);
    const from = fromLocalInput(String(data.get('from') ?? ''));
    const to = fromLocalInput(String(data.get('to') ?? ''));
    send(String(data.get('deputy') ?? '').trim(), from, to, 'Absence saved.');
  };
  // Ending it now: the period closes at this moment (a start still ahead moves to just before it).
  const endNow = () => {
    const now = new Date();
    const from =
      deputy.from && Date.parse(deputy.from) < now.getTime()
        ? deputy.from
        : new Date(now.getTime() - 1000).toISOString();
    send(deputy.id, from, now.toISOString(), 'Absence ended.');
  };
  const current = !!deputy.to && Date.parse(deputy.to) > Date.now();
  return (
    <>
      <AbsenceNow deputy={deputy} names={deputyName.data || deputy.id} />
      <form onSubmit={save} aria-label="Absence" key={`${deputy.id}:${deputy.from}:${deputy.to}`}>
        <div class="field">
          <label for="absence-deputy">Deputy (name, e-mail or id)</label>
          <PersonPicker id="absence-deputy" name="deputy" label="your deputy" initial={deputy.id} required />
        </div>
        <div class="row">
          <label>
            From{ZONE ? ` (${ZONE})` : ''}
            <input type="datetime-local" name="from" required defaultValue={toLocalInput(deputy.from)} />
          </label>
          <label>
            To{ZONE ? ` (${ZONE})` : ''}
            <input type="datetime-local" name="to" required defaultValue={toLocalInput(deputy.to)} />
          </label>
        </div>
        <div class="actions">
          <button type="submit" disabled={state.busy}>
            Save absence
          </button>
          {current ? (
            <button type="button" class="secondary" disabled={state.busy} onClick={endNow}>
              End it now
            </button>
          ) : null}
        </div>
        <SaveOutcome error={state.error} saved={saved} />
      </form>
    </>
  );
}
