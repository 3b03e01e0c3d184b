/**
 * Webhook subscriptions, in the service's local database (one process). The signing secret must be
 * kept to sign; it stays in this file (0600, the service's own) and is never logged or answered again.
 */
import type { WebhookEventType } from '@docflow/contracts';
import type { LocalDb } from '@docflow/kit/eventsourcing';
import type { Subscription } from './subscription';
import type { SubscriptionStore } from './webhooks-store';

export interface SubscriptionRow {
  id: string;
  url: string;
  event_types: string;
  description: string | null;
  secret: string;
  created_at: string;
}

export const subscriptionFromRow = (r: SubscriptionRow): Subscription => ({
  id: r.id,
  url: r.url,
  eventTypes: JSON.parse(r.event_types) as WebhookEventType[],
  ...(r.description === null ? {} : { description: r.description }),
  createdAt: r.created_at,
  secret: r.secret,
});

export function subscriptionStore(db: LocalDb): SubscriptionStore {
  db.exec(`
    CREATE TABLE IF NOT EXISTS webhook_subscriptions (
      id TEXT PRIMARY KEY, url TEXT NOT NULL, event_types TEXT NOT NULL, description TEXT,
      secret TEXT NOT NULL, created_at TEXT NOT NULL
    );
  `);
  const insert = db.prepare(
    'INSERT INTO webhook_subscriptions (id, url, event_types, description, secret, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const all = db.prepare<[], SubscriptionRow>('SELECT * FROM webhook_subscriptions ORDER BY created_at, id');
  const one = db.prepare<[string], SubscriptionRow>('SELECT * FROM webhook_subscriptions WHERE id = ?');
  const remove = db.prepare('DELETE FROM webhook_subscriptions WHERE id = ?');
  // Read by the consumer for every document event; only this store writes the table (one instance).
  let listed: Subscription[] | undefined;
  return {
    async add(s) {
      insert.run(s.id, s.url, JSON.stringify(s.eventTypes), s.description ?? null, s.secret, s.createdAt);
      listed = undefined;
    },
    async list() {
      listed ??= all.all().map(subscriptionFromRow);
      return listed;
    },
    async get(id) {
      const row = one.get(id);
      return row && subscriptionFromRow(row);
    },
    async delete(id) {
      listed = undefined;
      return remove.run(id).changes > 0;
    },
  };
}
