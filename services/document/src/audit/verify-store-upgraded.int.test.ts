/**
 * A store whose audit stream holds checkpoints of every layout ever written (issue 31): they parse
 * (upcast, contracts' upcasters/audit-checkpointed.ts), the store-wide verify checks their roots the
 * way they were taken, and the checkpoints taken after the upgrade link on. Tampering still shows.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bucketedRoot, merkleRoot, type StreamHead } from '@docflow/audit';
import { AUDIT_CHECKPOINT_STREAM } from '@docflow/contracts';
import { createSqliteEventStore, type EventStore, type NewEvent } from '@docflow/eventstore';
import { sealingEventStore } from './seal';
import { verifyStore } from './verify-store';

const STREAMS = ['docForm-6a1f0c2b3d4e5f6a7b8c9d0e', 'docForm-6a1f0c2b3d4e5f6a7b8c9d0f'];

const docEvent = (): NewEvent => ({
  id: randomUUID(),
  type: 'DocumentFieldsUpdated',
  version: 1,
  data: { note: randomUUID() },
  metadata: { correlationId: 'c', actor: 'usr-a', timestamp: new Date().toISOString() },
});

/** An `AuditCheckpointed` as a writer of the past appended it: version 1, whatever the layout. */
const checkpointEvent = (data: Record<string, unknown>): NewEvent => ({
  id: randomUUID(),
  type: 'AuditCheckpointed',
  version: 1,
  data,
  metadata: { correlationId: randomUUID(), timestamp: new Date().toISOString() },
});

async function headsOf(store: EventStore): Promise<StreamHead[]> {
  const heads: StreamHead[] = [];
  for (const streamId of STREAMS) {
    const last = (await store.readStream(streamId)).at(-1)!;
    heads.push({ streamId, revision: last.revision, hash: String(last.metadata.hash) });
  }
  return heads;
}

describe('verify-store over checkpoints of every layout', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-verify-upgraded-'));
  const raw = createSqliteEventStore({ file: join(dir, 'events.db') });
  const store = sealingEventStore(raw);
  let audited = 0;
  const checkpoint = async (data: Record<string, unknown>) => {
    await raw.append(AUDIT_CHECKPOINT_STREAM, [checkpointEvent(data)], audited);
    audited++;
  };
  before(async () => {
    await store.append(STREAMS[0]!, [docEvent(), docEvent()], 0);
    await store.append(STREAMS[1]!, [docEvent()], 0);
  });
  after(async () => {
    await raw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('0e506f2: one event with every head under their Merkle root', async () => {
    const heads = await headsOf(raw);
    await checkpoint({ root: merkleRoot(heads), streams: heads.length, heads });
    const verdict = await verifyStore(raw, STREAMS);
    assert.equal(verdict.valid, true, JSON.stringify(verdict));
    assert.equal(verdict.checkpoint?.rootMatchesHeads, true);
  });

  it('52867b3: every head in parts sharing a checkpoint id', async () => {
    await store.append(STREAMS[0]!, [docEvent()], 2);
    const heads = await headsOf(raw);
    const common = { checkpointId: randomUUID(), parts: 2, root: merkleRoot(heads), streams: heads.length };
    await checkpoint({ ...common, part: 1, heads: heads.slice(0, 1) });
    await checkpoint({ ...common, part: 2, heads: heads.slice(1) });
    const verdict = await verifyStore(raw, STREAMS);
    assert.equal(verdict.valid, true, JSON.stringify(verdict));
    assert.equal(verdict.checkpoint?.root, common.root);
  });

  it('after the upgrade: the first bucketed checkpoint names none, the next names it; both link', async () => {
    const heads = await headsOf(raw);
    const first = randomUUID();
    await raw.append(
      AUDIT_CHECKPOINT_STREAM,
      [
        {
          ...checkpointEvent({}),
          version: 2,
          data: {
            checkpointId: first,
            previousCheckpointId: null,
            part: 1,
            parts: 1,
            root: bucketedRoot(heads),
            streams: heads.length,
            heads,
          },
        },
      ],
      audited++,
    );
    await store.append(STREAMS[1]!, [docEvent()], 1);
    const changed = (await headsOf(raw)).slice(1);
    const all = [heads[0]!, ...changed];
    await raw.append(
      AUDIT_CHECKPOINT_STREAM,
      [
        {
          ...checkpointEvent({}),
          version: 2,
          data: {
            checkpointId: randomUUID(),
            previousCheckpointId: first,
            part: 1,
            parts: 1,
            root: bucketedRoot(all),
            streams: all.length,
            heads: changed,
          },
        },
      ],
      audited++,
    );
    const verdict = await verifyStore(raw, STREAMS);
    assert.equal(verdict.valid, true, JSON.stringify(verdict));
    assert.equal(verdict.checkpoint?.linked, true);
  });

  it('an old checkpoint whose heads were rewritten no longer matches its root', async () => {
    const dir2 = mkdtempSync(join(tmpdir(), 'docflow-verify-upgraded-tampered-'));
    const other = createSqliteEventStore({ file: join(dir2, 'events.db') });
    try {
      await sealingEventStore(other).append(STREAMS[0]!, [docEvent()], 0);
      await sealingEventStore(other).append(STREAMS[1]!, [docEvent()], 0);
      const heads = await headsOf(other);
      const forged = [heads[0]!, { ...heads[1]!, hash: 'f'.repeat(64) }];
      await other.append(
        AUDIT_CHECKPOINT_STREAM,
        [checkpointEvent({ root: merkleRoot(heads), streams: 2, heads: forged })],
        0,
      );
      const verdict = await verifyStore(other, STREAMS);
      assert.equal(verdict.valid, false);
      assert.equal(verdict.checkpoint?.rootMatchesHeads, false);
    } finally {
      await other.close();
      rmSync(dir2, { recursive: true, force: true });
    }
  });
});
