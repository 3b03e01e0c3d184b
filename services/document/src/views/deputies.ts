/** Who stands in for whom, from the identity service's events: the inbox of a deputy lists the tasks. */
import type { DeliveredMessage } from '@docflow/bus';
import { EventEnvelope } from '@docflow/contracts';
import { applyOnceDurably, type LocalDb } from '@docflow/kit';

const CONSUMER = 'document-deputies';

export interface DeputiesReadModel {
  handle(message: DeliveredMessage): Promise<void>;
}

/** Writes `view_deputies`, which the view read model creates (and reads). */
export function createDeputiesReadModel(db: LocalDb): DeputiesReadModel {
  const upsert = db.prepare(
    `INSERT INTO view_deputies (user_id, deputy_id, enabled) VALUES (?, ?, ?)
     ON CONFLICT(user_id) DO UPDATE SET deputy_id = excluded.deputy_id, enabled = excluded.enabled`,
  );
  const remove = db.prepare('DELETE FROM view_deputies WHERE user_id = ?');
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
  };
}
