/**
 * Checkpoints taken after the document service's local.db was lost (its heads rebuilt from the
 * events) name the last checkpoint of the audit stream, so the store-wide verify still finds every
 * checkpoint linked (issue 31).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { AUDIT_CHECKPOINT_STREAM } from '@docflow/contracts';
import { createSqliteEventStore, type NewEvent } from '@docflow/eventstore';
import { createLogger } from '@docflow/kit';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { startCheckpoints } from './checkpoints';
import { sealingEventStore } from './seal';
import { verifyStore } from './verify-store';

const STREAM = 'docForm-6a1f0c2b3d4e5f6a7b8c9d0e';
const INTERVAL_MS = 20;

const docEvent = (): NewEvent => ({
  id: randomUUID(),
  type: 'DocumentFieldsUpdated',
  version: 1,
  data: { note: randomUUID() },
  metadata: { correlationId: 'c', actor: 'usr-a', timestamp: new Date().toISOString() },
});

describe('audit checkpoints after local.db was lost', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-checkpoints-rebuilt-'));
  const raw = createSqliteEventStore({ file: join(dir, 'events.db') });
  const store = sealingEventStore(raw);
  const log = createLogger('document', 'silent');
  after(async () => {
    await raw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Takes checkpoints with a local database of `name` until the audit stream holds `count` events. */
  async function checkpointUntil(name: string, count: number): Promise<void> {
    const db = openLocalDb(join(dir, name));
    const checkpoints = startCheckpoints(store, db, log, INTERVAL_MS);
    try {
      for (let i = 0; i < 500 && (await raw.readStream(AUDIT_CHECKPOINT_STREAM)).length < count; i++)
        await sleep(INTERVAL_MS);
      assert.equal((await raw.readStream(AUDIT_CHECKPOINT_STREAM)).length, count);
    } finally {
      await checkpoints.stop();
      db.close();
    }
  }

  it('the first checkpoint with a new local.db names the stream\u2019s last one: linked, valid', async () => {
    await store.append(STREAM, [docEvent()], 0);
    await checkpointUntil('local.db', 1);
    await store.append(STREAM, [docEvent()], 1);
    await checkpointUntil('local-rebuilt.db', 2);
    const verdict = await verifyStore(raw, [STREAM]);
    assert.equal(verdict.checkpoint?.linked, true, JSON.stringify(verdict));
    assert.equal(verdict.valid, true, JSON.stringify(verdict));
  });
});
