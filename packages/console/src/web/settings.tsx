/** The signed-in person's own settings (issue 36): e-mail notifications and their absence. */
import { AbsenceForm } from './absence-form';
import type { Me } from './model';
import { NotificationsSetting } from './notifications-setting';
import { Section } from './ui';

export function SettingsPage({ me }: { me: Me }) {
  return (
    <>
      <h1>Your settings</h1>
      {me.kind === 'person' ? (
        <div class="columns">
          <Section title="E-mail notifications" id="notifications">
            <NotificationsSetting />
          </Section>
          <Section title="Out of office" id="absence">
            <p class="muted">
              While you are away, tasks that open for you go to your deputy, who answers them on your behalf.
            </p>
            <AbsenceForm personId={me._id_sys} />
          </Section>
        </div>
      ) : (
        <p class="empty">A service account has no personal settings: sign in as a person.</p>
      )}
    </>
  );
}
