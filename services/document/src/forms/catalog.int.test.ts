/**
 * The form catalog against a real SQLite event store: names from `form-` streams only, each once,
 * ordered; a form written by another process (straight to the store) is listed once caught up; one
 * added by this process is listed at once; the names survive a restart from the checkpoint.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createSqliteEventStore, type NewEvent } from '@docflow/eventstore';
import { createLogger } from '@docflow/kit';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { createFormCatalog } from './catalog';

const dir = mkdtempSync(join(tmpdir(), 'docflow-form-catalog-'));
const event = (type: string, data: Record<string, unknown> = {}): NewEvent => ({
  id: randomUUID(),
  type,
  version: 1,
  data,
  metadata: { correlationId: randomUUID(), timestamp: new Date().toISOString() },
});
const defined = (name: string) =>
  event('FormDefined', { definition: { name, title: name, formsystype: 1, tags: {} } });

describe('form catalog', () => {
  const store = createSqliteEventStore({ file: join(dir, 'events.db') });
  const log = createLogger('test', 'silent');
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the names of form- streams once each, by name; an added one at once; kept across a restart', async () => {
    await store.append('form-zeta', [defined('zeta')], 0);
    await store.append('docForm-0123', [event('DocumentCreated')], 0);
    await store.append('form-alpha', [defined('alpha')], 0);
    await store.append('form-zeta', [defined('zeta')], 1);
    const db = openLocalDb(join(dir, 'local.db'));
    const catalog = createFormCatalog(store, db, log);
    catalog.start();
    assert.equal(await catalog.caughtUp(10_000), true);
    assert.deepEqual(catalog.names(), ['alpha', 'zeta']);
    catalog.add('mid');
    assert.deepEqual(catalog.names(), ['alpha', 'mid', 'zeta']);
    await catalog.stop();
    db.close();

    // Another process defines a form while this one is stopped: the restart finds it from its checkpoint.
    await store.append('form-beta', [defined('beta')], 0);
    const reopened = openLocalDb(join(dir, 'local.db'));
    const again = createFormCatalog(store, reopened, log);
    again.start();
    assert.equal(await again.caughtUp(10_000), true);
    assert.deepEqual(again.names(), ['alpha', 'beta', 'mid', 'zeta']);
    await again.stop();
    reopened.close();
  });
});
