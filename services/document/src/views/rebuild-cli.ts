/**
 * Drops the view read model of a stopped document service and replays every document event into it,
 * with a progress line (events replayed of the total, rate, time left). Reads the same configuration
 * as the service (DOCFLOW_DATA_DIR, and EVENTSTORE_CONNECTION_STRING when the events live in
 * EventStoreDB). A relative DOCFLOW_DATA_DIR is taken from the directory the command was run in
 * (INIT_CWD under pnpm, which runs the script in services/document). With nothing changed: exit code
 * 4 when the directory is in use by a running service (README, "Scaling"); 2 when it has no document
 * event store, or its store holds no document event (the codes of `docflow views rebuild`, which runs
 * this file). A running service rebuilds online instead: POST /api/admin/v1/views/rebuild.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError, createLogger, loadConfig } from '@docflow/kit';
import { claimServiceDir, DataDirInUse, openEventStore, openServiceDb } from '@docflow/kit/engines';
import { z } from 'zod';
import { createDeputiesReadModel } from './deputies';
import { progressLine } from './progress';
import { createViewsProjection, VIEWS_STREAM_PREFIXES } from './projection';
import { createViewsReadModel } from './read-model';
import { tuneForOfflineRebuild } from './schema';

const RebuildEnv = z.object({
  DOCFLOW_DATA_DIR: z.string().min(1).default('./data'),
  EVENTSTORE_CONNECTION_STRING: z.string().optional(),
});
const PROGRESS_EVERY_MS = 500;
/** Stops the command: exit code 2, the reason on stderr. */
class Refused extends Error {}

async function rebuild(): Promise<void> {
  const env = loadConfig(RebuildEnv);
  const given = env.DOCFLOW_DATA_DIR;
  const dataDir = resolve(process.env.INIT_CWD ?? process.cwd(), given);
  const config = { ...env, DOCFLOW_DATA_DIR: dataDir };
  const where = given === dataDir ? dataDir : `${dataDir} (DOCFLOW_DATA_DIR=${given})`;
  const storeFile = join(dataDir, 'document', 'events.db');
  if (!env.EVENTSTORE_CONNECTION_STRING && !existsSync(storeFile))
    throw new Refused(`no document event store at ${storeFile}: is ${where} docflow's data directory?`);
  // Refused (DataDirInUse) while the document service runs on this directory.
  const lock = claimServiceDir('document', config);
  const store = openEventStore('document', config);
  const db = openServiceDb('document', config);
  tuneForOfflineRebuild(db);
  try {
    const total = await store.countAfter({
      streamPrefixes: VIEWS_STREAM_PREFIXES,
      limit: Number.MAX_SAFE_INTEGER,
    });
    if (total === 0)
      throw new Refused(
        `the document event store of ${where} holds no document event: nothing to rebuild, the views are left as they are`,
      );
    const projection = createViewsProjection(
      store,
      db,
      createViewsReadModel(db, createDeputiesReadModel(db)),
      createLogger('views-rebuild', 'warn'),
    );
    const started = performance.now();
    const cpuAtStart = process.cpuUsage();
    let last = 0;
    let replayedS = 0;
    await projection.rebuild(
      (applied) => {
        if (performance.now() - last < PROGRESS_EVERY_MS) return;
        last = performance.now();
        const perSecond = applied / ((last - started) / 1000);
        process.stdout.write(progressLine('views: events replayed', applied, total, perSecond));
      },
      {
        offline: {
          onIndex(name) {
            if (!replayedS) {
              replayedS = (performance.now() - started) / 1000;
              process.stdout.write(`\rviews: ${total} events replayed in ${replayedS.toFixed(1)} s\n`);
            }
            process.stdout.write(`\rviews: building index ${name}                \n`);
          },
        },
      },
    );
    const indexedS = (performance.now() - started) / 1000;
    await projection.stop();
    // Part of the rebuild's time: the service would otherwise copy the rebuild's WAL (up to
    // REBUILD_WAL_PAGES, schema.ts) into local.db on its first write after start.
    process.stdout.write('\rviews: copying the write-ahead log into local.db\n');
    db.pragma('wal_checkpoint(TRUNCATE)');
    const seconds = (performance.now() - started) / 1000;
    // This process's CPU time (user and system, every thread) from the replay's start: on a loaded
    // machine the wall time says more about the other processes.
    const cpu = process.cpuUsage(cpuAtStart);
    const cpuS = Math.max((cpu.user + cpu.system) / 1e6, 1e-3);
    process.stdout.write(
      `\rviews: rebuilt in ${seconds.toFixed(1)} s (${total} events, ${Math.round(total / seconds)} events/s; replay ${replayedS.toFixed(1)} s, indexes ${(indexedS - replayedS).toFixed(1)} s, WAL copied into local.db ${(seconds - indexedS).toFixed(1)} s) · CPU ${cpuS.toFixed(1)} s, ${Math.round(total / cpuS)} events per CPU second\n`,
    );
  } finally {
    await store.close();
    db.close();
    lock.release();
  }
}

try {
  await rebuild();
} catch (error) {
  if (!(error instanceof Refused || error instanceof DataDirInUse || error instanceof ConfigError))
    throw error;
  console.error(`views:rebuild: ${error.message}`);
  process.exitCode = error instanceof DataDirInUse ? 4 : 2;
}
