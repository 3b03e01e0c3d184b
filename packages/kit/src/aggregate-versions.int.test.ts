/**
 * The one command path stamps each event with its type's current schema version, and the fold reads
 * an older one upcast (contracts' upcasters), against the real SQLite event store (issue 31).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AuditCheckpoint, currentVersion } from '@docflow/contracts';
import { createSqliteEventStore, type EventStore } from '@docflow/eventstore';
import { type Aggregate, executeCommand, loadAggregate, recordEvents } from './aggregate';

type Checkpointed = { type: 'AuditCheckpointed'; data: AuditCheckpoint };

/** Keeps the checkpoints it folded, parsed with the current schema. */
const checkpoints: Aggregate<AuditCheckpoint[], Checkpointed> = {
  initial: [],
  evolve: (state, event) => [...state, event.data],
  parse: (type, data) => ({ type: type as 'AuditCheckpointed', data: AuditCheckpoint.parse(data) }),
};

const HASH = 'ab'.repeat(32);
const heads = [{ streamId: 'docForm-1', revision: 2, hash: HASH }];
const metadata = { correlationId: 'c', timestamp: '2026-11-26T00:00:00.000Z' };

describe('event schema versions on the command path', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-versions-'));
  const store: EventStore = createSqliteEventStore({ file: join(dir, 'events.db') });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('folds a checkpoint of the first layout (version 1) as the current one', async () => {
    const id = randomUUID();
    await store.append(
      'audit-a',
      [{ id, type: 'AuditCheckpointed', version: 1, data: { root: HASH, streams: 1, heads }, metadata }],
      0,
    );
    const { state } = await loadAggregate(store, 'audit-a', checkpoints);
    assert.deepEqual(state, [
      {
        checkpointId: id,
        previousCheckpointId: null,
        part: 1,
        parts: 1,
        root: HASH,
        streams: 1,
        heads,
        full: true,
      },
    ]);
  });

  it('stamps the current version: executeCommand and recordEvents', async () => {
    const data: AuditCheckpoint = {
      checkpointId: randomUUID(),
      previousCheckpointId: null,
      part: 1,
      parts: 1,
      root: HASH,
      streams: 1,
      heads,
    };
    await executeCommand(
      store,
      'audit-b',
      checkpoints,
      () => [{ type: 'AuditCheckpointed', data }],
      metadata,
    );
    await recordEvents(
      store,
      'audit-b',
      [
        { type: 'AuditCheckpointed', data },
        { type: 'Untouched', data: {} },
      ],
      metadata,
    );
    const versions = (await store.readStream('audit-b')).map((e) => [e.type, e.version]);
    assert.equal(currentVersion('AuditCheckpointed'), 2);
    assert.deepEqual(versions, [
      ['AuditCheckpointed', 2],
      ['AuditCheckpointed', 2],
      ['Untouched', 1],
    ]);
  });
});
