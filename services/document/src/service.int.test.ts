/** The document service's start, retried after it failed part-way, starts each part once. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { type Bus, BusUnavailable, createInProcessBus } from '@docflow/bus';
import { createSqliteEventStore, type EventStore } from '@docflow/eventstore';
import { createLogger } from '@docflow/kit';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { inProcessClient } from '@docflow/kit/http';
import { createDocumentService } from './service';

const NAMESPACE = 'document-start-test';

describe('document service start', () => {
  it('retried after one consumer group failed to join: each consumer and subscription started once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docflow-document-start-'));
    const sqlite = createSqliteEventStore({ file: join(dir, 'events.db') });
    const inProcess = createInProcessBus();
    const db = openLocalDb(join(dir, 'local.db'));
    const joined: string[] = [];
    let refuseDeputies = true;
    const bus: Bus = {
      ...inProcess,
      async subscribe(options, handler) {
        if (options.groupId.endsWith('.document-deputies-test') && refuseDeputies) {
          refuseDeputies = false;
          throw new BusUnavailable('Kafka unavailable while joining group: coordinator loading');
        }
        const consumer = await inProcess.subscribe(options, handler);
        joined.push(options.groupId.slice(NAMESPACE.length + 1));
        return consumer;
      },
    };
    let storeSubscriptions = 0;
    const store: EventStore = {
      ...sqlite,
      subscribeAll(options, handler) {
        storeSubscriptions++;
        return sqlite.subscribeAll(options, handler);
      },
    };
    const nobody = inProcessClient(() => new Response(null, { status: 503 }));
    // An identity with no account: the deputies' rebuild at start reads one empty page.
    const identity = inProcessClient(() => Response.json({ accounts: [], next: null }));
    const document = createDocumentService({
      service: 'document',
      instanceId: 'test',
      store,
      bus,
      db,
      log: createLogger('document', 'silent'),
      namespace: NAMESPACE,
      internalToken: 'test-internal-token-of-at-least-32-chars',
      identity,
      files: nobody,
      workflow: nobody,
      recognition: nobody,
      maxCreateBytes: 1024,
    });
    try {
      await assert.rejects(document.start(), BusUnavailable);
      await document.start();
      assert.deepEqual(joined.sort(), [
        'document-deputies-test',
        'document-recognition',
        'document-workflow',
      ]);
      assert.equal(storeSubscriptions, 3, 'the views projection, the relay and the form catalog, once each');
    } finally {
      await document.stop();
      await inProcess.close();
      await sqlite.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
