/**
 * The person's notification settings (issue 36) and where the workflow service may e-mail them. The
 * setting is the person's own: one `NotificationSettingsChanged` per change in a private stream
 * (`notifications-<usr-id>`, never relayed). Addresses come from the account, read at call time: an
 * erased, deactivated or opted-out person is left out, so they get no mail.
 */
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  getMyNotificationsRoute,
  NotificationSettings,
  notificationRecipientsRoute,
} from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { commandMetadata, loadAggregate, recordEvents } from '@docflow/kit/eventsourcing';
import { problems, readJson, type ServiceEnv, serveInternal } from '@docflow/kit/http';
import { Hono } from 'hono';
import { type AccountAggregate, accountStream } from './account';
import { displayName } from './resolve';

const settingsStream = (id: string) => `notifications-${id}`;

async function settingsOf(store: EventStore, id: string): Promise<NotificationSettings> {
  const events = await store.readStream(settingsStream(id));
  const last = events.at(-1);
  return last ? NotificationSettings.parse(last.data) : DEFAULT_NOTIFICATION_SETTINGS;
}

export function notificationSettingsApi(store: EventStore, accounts: AccountAggregate): Hono<ServiceEnv> {
  const app = new Hono<ServiceEnv>();

  async function ownPerson(subject: string): Promise<string> {
    const { state } = await loadAggregate(store, accountStream(subject), accounts);
    if (!state.exists || state.kind !== 'person') throw problems.notFound('no such person');
    return subject;
  }

  app.get(getMyNotificationsRoute.path, async (c) =>
    c.json(await settingsOf(store, await ownPerson(c.var.principal.subject))),
  );

  app.put(getMyNotificationsRoute.path, async (c) => {
    const id = await ownPerson(c.var.principal.subject);
    const settings = await readJson(c, NotificationSettings);
    await recordEvents(
      store,
      settingsStream(id),
      [{ type: 'NotificationSettingsChanged', data: settings }],
      commandMetadata(c.var.principal, c.var),
    );
    return c.json(settings);
  });

  serveInternal(app, notificationRecipientsRoute, async (_c, { body: { ids } }) => {
    const recipients: Record<string, { email: string; name: string }> = {};
    for (const id of new Set(ids)) {
      const { state } = await loadAggregate(store, accountStream(id), accounts);
      if (!state.exists || state.kind !== 'person' || !state.active || state.erased || !state.email) continue;
      if (!(await settingsOf(store, id)).email) continue;
      recipients[id] = { email: state.email, name: displayName(state) };
    }
    return { recipients };
  });

  return app;
}
