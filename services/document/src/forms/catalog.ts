/**
 * The names of the defined forms: a read model in the document service's local database, kept from
 * its own `form-` streams by a catch-up subscription whose checkpoint is saved in the same transaction
 * as the name. A listing loads each form from the event store, so it shows each as it is now.
 *
 * A form defined through this process is recorded at once (`add`), so its listing follows its PUT; one
 * defined through another process arrives with the subscription, as lists may lag (DESIGN.md). A
 * listing waits only until the subscription has caught up once after the start: form events are rare,
 * and where the store looks for the newest one among its latest events only (PostgreSQL, KurrentDB:
 * `headPosition`), waiting on every listing would wait out its bound whenever none of them is a form's.
 */
import { formStream } from '@docflow/contracts';
import type { EventStore, RecordedEvent } from '@docflow/eventstore';
import type { Logger } from '@docflow/kit';
import { checkpointReached, checkpointStore, followStreams, type LocalDb } from '@docflow/kit/eventsourcing';

const NAME = 'document-form-catalog';
const PREFIX = formStream('');
const PREFIXES = [PREFIX];

export interface FormCatalog {
  start(): void;
  stop(): Promise<void>;
  /**
   * Resolves true once the catalog has held every form event stored at some call since the start (at
   * most `timeoutMs` each call until then), false when that call timed out.
   */
  caughtUp(timeoutMs: number): Promise<boolean>;
  /** Records a form this process has just defined. */
  add(name: string): void;
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

  const follower = followStreams({
    store,
    checkpoints,
    name: NAME,
    streamPrefixes: PREFIXES,
    log,
    label: 'form catalog',
    apply: applyTx,
  });
  let caughtUpOnce = false;
  return {
    ...follower,
    async caughtUp(timeoutMs) {
      caughtUpOnce ||= await checkpointReached(store, checkpoints, NAME, PREFIXES, timeoutMs);
      return caughtUpOnce;
    },
    add: (name) => {
      insert.run(name);
    },
    names: () => select.all(),
  };
}
