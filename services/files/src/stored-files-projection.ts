/**
 * Keeps the stored-files table from the service's own event store: a catch-up subscription over the
 * `file-` streams from a checkpoint saved in the same transaction as the table's change, so a
 * FileStored committed before a crash is applied after the restart, and nothing twice.
 */
import type { EventStore, RecordedEvent, Subscription } from '@docflow/eventstore';
import type { Logger } from '@docflow/kit';
import { checkpointStore, type LocalDb } from '@docflow/kit/eventsourcing';
import type { StoredFilesTable } from './stored-files';

const NAME = 'files-stored-files';
const PREFIXES = ['file-'];

export interface StoredFilesProjection {
  /** Sets the sweep horizon on the first start, then follows the store. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * Resolves true once every `file-` event stored when it was called is in the table (appended by
   * this process or by any other on the same store), or false after `timeoutMs`.
   */
  caughtUp(timeoutMs: number): Promise<boolean>;
}

interface Waiter {
  head: string;
  done(reached: boolean): void;
}

export function createStoredFilesProjection(
  store: EventStore,
  db: LocalDb,
  table: StoredFilesTable,
  log: Logger,
): StoredFilesProjection {
  const checkpoints = checkpointStore(db);
  let applied = checkpoints.load(NAME) ?? '';
  let subscription: Subscription | undefined;
  const waiters = new Set<Waiter>();

  const applyTx = db.transaction((event: RecordedEvent) => {
    table.apply(event);
    checkpoints.save(NAME, event.position);
  });

  return {
    async start() {
      if (subscription) return;
      // The attachment index lives in this same database and cannot be rebuilt further back than the
      // bus still holds. A database that starts keeping this table now (new, lost, or older than this
      // table) may not know the documents of files stored before, so those are never swept.
      if (table.horizon() === undefined)
        table.setHorizonOnce((await store.headPosition({ streamPrefixes: PREFIXES })) ?? '');
      subscription = store.subscribeAll(
        {
          after: checkpoints.load(NAME),
          streamPrefixes: PREFIXES,
          onHandlerError: (err, event, attempt) =>
            log.warn({ err, eventId: event.id, attempt }, 'stored files: applying an event failed, retrying'),
        },
        async (event) => {
          applyTx(event);
          applied = event.position;
          for (const waiter of waiters) if (waiter.head <= applied) waiter.done(true);
        },
      );
    },

    async stop() {
      await subscription?.stop();
      subscription = undefined;
      for (const waiter of waiters) waiter.done(false);
    },

    async caughtUp(timeoutMs) {
      const head = await store.headPosition({ streamPrefixes: PREFIXES });
      if (head === undefined || head <= applied) return true;
      return new Promise<boolean>((resolve) => {
        const waiter: Waiter = {
          head,
          done(reached) {
            clearTimeout(timer);
            waiters.delete(waiter);
            resolve(reached);
          },
        };
        const timer = setTimeout(() => waiter.done(false), timeoutMs);
        waiters.add(waiter);
      });
    },
  };
}
