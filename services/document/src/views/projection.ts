/**
 * Keeps the view read model up to date from the document service's own event store: a catch-up
 * subscription from a stored checkpoint, each event applied once in one transaction with the
 * checkpoint. `rebuild()` drops everything and replays from the first event.
 */
import type { EventStore, Subscription } from '@docflow/eventstore';
import { applyOnce, checkpointStore, type LocalDb, type Logger } from '@docflow/kit';
import { docAggregate, initialDoc } from '../docForm';
import type { ViewsReadModel } from './read-model';

const NAME = 'views';
const PREFIXES = ['docForm-'];
const CATCH_UP_POLL_MS = 20;

export interface ViewsProjection {
  start(): void;
  stop(): Promise<void>;
  /** Resolves once every event stored so far is in the read model, or false after `timeoutMs`. */
  caughtUp(timeoutMs: number): Promise<boolean>;
  /** Drops the read model and replays every event; resolves when it has caught up. */
  rebuild(onProgress?: (applied: number) => void): Promise<void>;
}

export function createViewsProjection(
  store: EventStore,
  db: LocalDb,
  views: ViewsReadModel,
  log: Logger,
): ViewsProjection {
  const checkpoints = checkpointStore(db);
  let subscription: Subscription | undefined;
  let applied = 0;
  let progress: ((applied: number) => void) | undefined;

  const resetTx = db.transaction(() => {
    views.clear();
    db.prepare('DELETE FROM checkpoints WHERE name = ?').run(NAME);
    db.prepare('DELETE FROM handled_messages WHERE consumer = ?').run(NAME);
  });

  function start() {
    subscription = store.subscribeAll(
      { after: checkpoints.load(NAME), streamPrefixes: PREFIXES },
      async (recorded) => {
        db.transaction(() => {
          applyOnce(db, NAME, recorded.id, () => {
            const id = recorded.streamId.slice('docForm-'.length);
            const current = views.get(id) ?? initialDoc;
            const event = docAggregate.parse(recorded.type, recorded.data);
            views.put(docAggregate.evolve(current, event, recorded));
          });
          checkpoints.save(NAME, recorded.position);
        })();
        applied++;
        progress?.(applied);
      },
    );
  }

  async function caughtUp(timeoutMs: number): Promise<boolean> {
    const head = await store.headPosition({ streamPrefixes: PREFIXES });
    const end = Date.now() + timeoutMs;
    while (head !== undefined && (checkpoints.load(NAME) ?? '') < head) {
      if (Date.now() > end) return false;
      await new Promise((r) => setTimeout(r, CATCH_UP_POLL_MS));
    }
    return true;
  }

  return {
    start,
    async stop() {
      await subscription?.stop();
      subscription = undefined;
    },
    caughtUp,
    async rebuild(onProgress) {
      await subscription?.stop();
      resetTx();
      applied = 0;
      progress = onProgress;
      log.info('views: dropped, replaying every document event');
      start();
      await caughtUp(Number.POSITIVE_INFINITY);
      progress = undefined;
      log.info({ applied }, 'views: rebuilt');
    },
  };
}
