/** Who stands in for whom, from the identity service's events: the inbox of a deputy lists the tasks. */
import type { DeliveredMessage } from '@docflow/bus';
import { EventEnvelope } from '@docflow/contracts';
import { applyOnceDurably, type LocalDb } from '@docflow/kit/eventsourcing';

const CONSUMER = 'document-deputies';

export interface DeputiesReadModel {
  handle(message: DeliveredMessage): Promise<void>;
  /** The users whose enabled deputy `deputyId` is: their open tasks and documents count as the deputy's. */
  standsInFor(deputyId: string): string[];
}

/**
 * Owns `view_deputies` (not dropped when the views are replayed: document events do not give it).
 * @example const deputies = createDeputiesReadModel(db); deputies.standsInFor('usr-…')
 */
export function createDeputiesReadModel(db: LocalDb): DeputiesReadModel {
  db.exec(`CREATE TABLE IF NOT EXISTS view_deputies (
    user_id TEXT PRIMARY KEY, deputy_id TEXT NOT NULL, enabled INTEGER NOT NULL)`);
  const upsert = db.prepare(
    `INSERT INTO view_deputies (user_id, deputy_id, enabled) VALUES (?, ?, ?)
     ON CONFLICT(user_id) DO UPDATE SET deputy_id = excluded.deputy_id, enabled = excluded.enabled`,
  );
  const remove = db.prepare('DELETE FROM view_deputies WHERE user_id = ?');
  const standsInFor = db
    .prepare<[string], string>('SELECT user_id FROM view_deputies WHERE deputy_id = ? AND enabled = 1')
    .pluck();
  return {
    async handle(message) {
      const envelope = EventEnvelope.parse(message.value);
      if (envelope.type !== 'PersonUpdated') return;
      const deputy = (envelope.data as { changes?: { deputy?: { id: string; enabled: boolean } } }).changes
        ?.deputy;
      if (!deputy) return;
      const userId = envelope.streamId.slice('account-'.length);
      await applyOnceDurably(db, CONSUMER, envelope.id, () => {
        if (deputy.id) upsert.run(userId, deputy.id, deputy.enabled ? 1 : 0);
        else remove.run(userId);
      });
    },
    standsInFor: (deputyId) => standsInFor.all(deputyId),
  };
}
