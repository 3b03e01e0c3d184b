/**
 * A person's deputy, set by an administrator on the person's account card: picked by name, e-mail or
 * id (person-picker.tsx), enabled or not, saved through `POST /api/v2/person` as the deputy's id.
 */
import type { components } from '@docflow/client/openapi';
import { useState } from 'preact/hooks';
import { accountNamed } from './account-lookup';
import { call, enc, get } from './api';
import { PersonPicker } from './person-picker';
import { ErrorBox, SaveOutcome, useAction, useLoad } from './ui';

type Person = components['schemas']['Person'];

export function DeputyForm({ personId, email }: { personId: string; email: string }) {
  const person = useLoad(() => get<Person>(`/api/v2/person/${enc(personId)}`), personId);
  const [run, state] = useAction();
  const [saved, setSaved] = useState('');
  const save = (e: Event) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget as HTMLFormElement);
    const typed = String(data.get('deputy') ?? '').trim();
    setSaved('');
    run(async () => {
      const id = typed ? (await accountNamed(typed))._id_sys : '';
      await call('POST', '/api/v2/person', {
        _id_sys: personId,
        deputy: { id, enabled: data.get('enabled') ? 'true' : 'false' },
      });
      person.reload();
      setSaved(id ? 'Deputy saved.' : 'Deputy removed.');
    });
  };
  if (!person.data) return <ErrorBox error={person.error} />;
  const { deputy } = person.data;
  const inputId = `deputy-${personId}`;
  return (
    <form onSubmit={save} aria-label={`Deputy of ${email}`} key={`${deputy.id}:${deputy.enabled}`}>
      <div class="field">
        <label for={inputId}>Deputy (name, e-mail or id; empty: none)</label>
        <PersonPicker id={inputId} name="deputy" label={`the deputy of ${email}`} initial={deputy.id} />
      </div>
      <label class="check">
        <input type="checkbox" name="enabled" defaultChecked={deputy.enabled === 'true'} /> Stands in now
      </label>
      <div class="actions">
        <button type="submit" class="secondary" disabled={state.busy}>
          Save deputy
        </button>
      </div>
      <SaveOutcome error={state.error} saved={saved} />
    </form>
  );
}
