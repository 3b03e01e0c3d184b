/**
 * Webhook subscriptions, in the service's local database. The signing secret must be kept to sign;
 * it stays in this file (0600, the service's own) and is never logged or answered again.
 */
import type { WebhookEventType } from '@docflow/contracts';
import type { LocalDb } from '@docflow/kit/eventsourcing';
import type { Subscription } from './subscription';

interface Row {
  id: string;
  url: string;
  event_types: string;
  description: string | null;
  secret: string;
  created_at: string;
}

const fromRow = (r: Row): Subscription => ({
  id: r.id,
  url: r.url,
  eventTypes: JSON.parse(r.event_types) as WebhookEventType[],
  ...(r.description === null ? {} : { description: r.description }),
  createdAt: r.created_at,
  secret: r.secret,
});

export function subscriptionStore(db: LocalDb) {
  db.exec(`
    CREATE TABLE IF NOT EXISTS webhook_subscriptions (
      id TEXT PRIMARY KEY, url TEXT NOT NULL, event_types TEXT NOT NULL, description TEXT,
      secret TEXT NOT NULL, created_at TEXT NOT NULL
    );
  `);
  const insert = db.prepare(
    'INSERT INTO webhook_subscriptions (id, url, event_types, description, secret, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const all = db.prepare<[], Row>('SELECT * FROM webhook_subscriptions ORDER BY created_at, id');
  const one = db.prepare<[string], Row>('SELECT * FROM webhook_subscriptions WHERE id = ?');
  const remove = db.prepare('DELETE FROM webhook_subscriptions WHERE id = ?');
  // Read by the consumer for every document event; only this store writes the table (one instance).
  let listed: Subscription[] | undefined;
  return {
    /** Stores a new subscription (decided by businessLogic.ts's decideCreate). */
    add(s: Subscription): void {
      insert.run(s.id, s.url, JSON.stringify(s.eventTypes), s.description ?? null, s.secret, s.createdAt);
      listed = undefined;
    },
    list(): Subscription[] {
      listed ??= all.all().map(fromRow);
      return listed;
    },
    get(id: string): Subscription | undefined {
      const row = one.get(id);
      return row && fromRow(row);
    },
    /** False when there was no such subscription. */
    delete(id: string): boolean {
      listed = undefined;
      return remove.run(id).changes > 0;
    },
  };
}
export type SubscriptionStore = ReturnType<typeof subscriptionStore>;
