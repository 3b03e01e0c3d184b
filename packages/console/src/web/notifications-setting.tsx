/** The person's own e-mail opt-out (issue 36): a switch saved at once through `PUT /api/v2/me/notifications`. */
import { useState } from 'preact/hooks';
import { call } from './api';
import { ErrorBox, Loading, SaveOutcome, useAction, useLoad } from './ui';

interface NotificationSettings {
  email: boolean;
}

const PATH = '/api/v2/me/notifications';

export function NotificationsSetting() {
  const settings = useLoad(() => call<NotificationSettings>('GET', PATH).then((r) => r.body), 'me');
  const [run, state] = useAction();
  const [saved, setSaved] = useState('');
  if (!settings.data)
    return settings.error ? <ErrorBox error={settings.error} /> : <Loading what="your settings" />;
  const toggle = (email: boolean) => {
    setSaved('');
    run(async () => {
      const { body } = await call<NotificationSettings>('PUT', PATH, { email });
      settings.reload();
      setSaved(body.email ? 'E-mail notifications are on.' : 'E-mail notifications are off.');
    });
  };
  return (
    <>
      {/* Uncontrolled, remounted with what the server holds: a failed save leaves the switch as saved. */}
      <label class="check" key={String(settings.data.email)}>
        <input
          type="checkbox"
          defaultChecked={settings.data.email}
          disabled={state.busy}
          onChange={(e) => toggle((e.target as HTMLInputElement).checked)}
        />{' '}
        E-mail me when a task opens for me, is due soon, is overdue or is escalated to me
      </label>
      <SaveOutcome error={state.error} saved={saved} />
    </>
  );
}
