/**
 * A document service for int tests: a SQLite event store and local db in a temporary folder, an
 * in-process bus, and every service it calls answering 503. `close` releases them and the folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInProcessBus } from '@docflow/bus';
import { createSqliteEventStore } from '@docflow/eventstore';
import { createLogger } from '@docflow/kit';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { inProcessClient } from '@docflow/kit/http';
import { createDocumentService } from '../service';

export function sqliteDocumentService(namespace: string, internalToken: string) {
  const dir = mkdtempSync(join(tmpdir(), `docflow-${namespace}-`));
  const store = createSqliteEventStore({ file: join(dir, 'events.db') });
  const bus = createInProcessBus();
  const db = openLocalDb(join(dir, 'local.db'));
  const nobody = inProcessClient(() => new Response(null, { status: 503 }));
  const document = createDocumentService({
    service: 'document',
    instanceId: 'test',
    store,
    bus,
    db,
    log: createLogger('document', 'silent'),
    namespace,
    internalToken,
    identity: nobody,
    files: nobody,
    workflow: nobody,
    recognition: nobody,
    maxCreateBytes: 1024,
  });
  const close = async () => {
    await bus.close();
    await store.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { document, store, close };
}
