/**
 * The names of the defined forms: a read model in the document service's local database, kept from
 * its own `form-` streams by a catch-up subscription whose checkpoint is saved in the same transaction
 * as the name. A listing loads each form from the event store, so it shows each as it is now.
 */
import { formStream } from '@docflow/contracts';
import type { EventStore, RecordedEvent, Subscription } from '@docflow/eventstore';
import type { Logger } from '@docflow/kit';
import { checkpointReached, checkpointStore, type LocalDb } from '@docflow/kit/eventsourcing';

const NAME = 'document-form-catalog';
const PREFIX = formStream('');
const PREFIXES = [PREFIX];

export interface FormCatalog {
  start(): void;
  stop(): Promise<void>;
  /** Resolves true once every form event stored so far is in the catalog, false after `timeoutMs`. */
  caughtUp(timeoutMs: number): Promise<boolean>;
  /** Every form name, in order. */
  names(): string[];
}

export function createFormCatalog(store: EventStore, db: LocalDb, log: Logger): FormCatalog {
  db.exec('CREATE TABLE IF NOT EXISTS document_forms (name TEXT PRIMARY KEY) WITHOUT ROWID');
  const checkpoints = checkpointStore(db);
  const insert = db.prepare('INSERT OR IGNORE INTO document_forms (name) VALUES (?)');
  const select = db.prepare<[], string>('SELECT name FROM document_forms ORDER BY name').pluck();
  const applyTx = db.transaction((event: RecordedEvent) => {
    insert.run(event.streamId.slice(PREFIX.length));
    checkpoints.save(NAME, event.position);
  });

  let subscription: Subscription | undefined;
  return {
    start() {
      subscription ??= store.subscribeAll(
        {
          after: checkpoints.load(NAME),
          streamPrefixes: PREFIXES,
          onHandlerError: (err, event, attempt) =>
            log.warn({ err, eventId: event.id, attempt }, 'form catalog: applying an event failed, retrying'),
        },
        async (event) => applyTx(event),
      );
    },
    async stop() {
      await subscription?.stop();
      subscription = undefined;
    },
    caughtUp: (timeoutMs) => checkpointReached(store, checkpoints, NAME, PREFIXES, timeoutMs),
    names: () => select.all(),
  };
}
