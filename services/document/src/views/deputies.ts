/**
 * Who stands in for whom: the inbox of a deputy lists the tasks. Identity owns deputies; this read
 * model is rebuilt from identity's durable streams (its accounts route, read once into an empty
 * table) and kept current by identity's events on the bus. The bus alone cannot rebuild it: the
 * in-process bus keeps no history and a Kafka topic only its retention.
 */
import type { DeliveredMessage } from '@docflow/bus';
import { type AccountsPage, EventEnvelope } from '@docflow/contracts';
import { applyOnceDurably, checkpointStore, type LocalDb } from '@docflow/kit/eventsourcing';

const CONSUMER = 'document-deputies';
/** Marks, in the checkpoints table, that the table holds every deputy identity had at the rebuild. */
const REBUILT = 'document-deputies-rebuilt';

export interface DeputiesReadModel {
  handle(message: DeliveredMessage): Promise<void>;
  /**
   * Fills an empty table (a new or lost local.db) from identity, page by page; nothing once done.
   * Throws when identity does not answer: the service's start is retried.
   */
  rebuild(fetchPage: (first: number) => Promise<AccountsPage>): Promise<void>;
  /** The users whose enabled deputy `deputyId` is: their open tasks and documents count as the deputy's. */
  standsInFor(deputyId: string): string[];
}

/**
 * Owns `view_deputies` (not dropped when the views are replayed: document events do not give it).
 * Each row keeps the revision of the account stream it reflects, so neither the rebuild nor a late
 * or repeated bus event ever replaces a newer deputy with an older one.
 * @example const deputies = createDeputiesReadModel(db); deputies.standsInFor('usr-…')
 */
export function createDeputiesReadModel(db: LocalDb): DeputiesReadModel {
  // A table from before the revisions is dropped: the rebuild fills it again.
  const columns = db.prepare<[], string>("SELECT name FROM pragma_table_info('view_deputies')").pluck().all();
  const outdated = columns.length > 0 && !columns.includes('revision');
  if (outdated) db.exec('DROP TABLE view_deputies');
  db.exec(`CREATE TABLE IF NOT EXISTS view_deputies (
    user_id TEXT PRIMARY KEY, deputy_id TEXT, enabled INTEGER NOT NULL, revision INTEGER NOT NULL)`);
  const checkpoints = checkpointStore(db);
  // A removed deputy stays as a row without one, holding its revision against older events.
  const upsert = db.prepare<[string, string | null, number, number]>(
    `INSERT INTO view_deputies (user_id, deputy_id, enabled, revision) VALUES (?, ?, ?, ?)
     ON CONFLICT(user_id) DO UPDATE SET deputy_id = excluded.deputy_id, enabled = excluded.enabled,
       revision = excluded.revision WHERE excluded.revision > view_deputies.revision`,
  );
  const standsInFor = db
    .prepare<[string], string>('SELECT user_id FROM view_deputies WHERE deputy_id = ? AND enabled = 1')
    .pluck();
  const savePage = db.transaction((page: AccountsPage['accounts']) => {
    for (const { id, deputy, revision } of page)
      upsert.run(id, deputy?.id ?? null, deputy?.enabled ? 1 : 0, revision);
  });
  return {
    async handle(message) {
      const envelope = EventEnvelope.parse(message.value);
      if (envelope.type !== 'PersonUpdated') return;
      const deputy = (envelope.data as { changes?: { deputy?: { id: string; enabled: boolean } } }).changes
        ?.deputy;
      if (!deputy) return;
      const userId = envelope.streamId.slice('account-'.length);
      // Durable before the bus is told: a row a power loss took back would not come again.
      await applyOnceDurably(db, CONSUMER, envelope.id, () =>
        upsert.run(userId, deputy.id || null, deputy.enabled ? 1 : 0, envelope.revision),
      );
    },
    async rebuild(fetchPage) {
      if (checkpoints.load(REBUILT)) return;
      for (let first: number | null = 0; first !== null; ) {
        const page: AccountsPage = await fetchPage(first);
        savePage(page.accounts);
        first = page.next;
      }
      checkpoints.save(REBUILT, new Date().toISOString());
    },
    standsInFor: (deputyId) => standsInFor.all(deputyId),
  };
}
