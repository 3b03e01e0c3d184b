/**
 * Drops the view read model of a stopped document service and replays every document event into it,
 * showing progress. Reads the same configuration as the service (DOCFLOW_DATA_DIR, and
 * EVENTSTORE_CONNECTION_STRING when the events live in EventStoreDB). A running service rebuilds
 * online instead: POST /api/admin/v1/views/rebuild.
 */
import { createLogger, loadConfig } from '@docflow/kit';
import { claimServiceDir, openEventStore, openServiceDb } from '@docflow/kit/engines';
import { z } from 'zod';
import { createDeputiesReadModel } from './deputies';
import { createViewsProjection } from './projection';
import { createViewsReadModel } from './read-model';

const RebuildEnv = z.object({
  DOCFLOW_DATA_DIR: z.string().min(1).default('./data'),
  EVENTSTORE_CONNECTION_STRING: z.string().optional(),
});

const config = loadConfig(RebuildEnv);
// Refused (DataDirInUse) while the document service runs on this directory.
const lock = claimServiceDir('document', config);
const store = openEventStore('document', config);
const db = openServiceDb('document', config);
const projection = createViewsProjection(
  store,
  db,
  createViewsReadModel(db, createDeputiesReadModel(db)),
  createLogger('views-rebuild', 'warn'),
);
const started = Date.now();
let last = 0;
await projection.rebuild((applied) => {
  if (Date.now() - last > 500) {
    last = Date.now();
    process.stdout.write(`\rviews: ${applied} events replayed`);
  }
});
process.stdout.write(`\rviews: rebuilt in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
await projection.stop();
await store.close();
db.close();
lock.release();
