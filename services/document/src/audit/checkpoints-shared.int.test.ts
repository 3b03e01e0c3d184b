/**
 * Two document processes on one shared PostgreSQL store (infra/local/up.sh) take audit checkpoints:
 * only the lease's holder does, so the audit stream stays one chain, also when the holder stops and
 * the other takes over (issue 35). Without the lease both would name the same previous checkpoint.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { AUDIT_CHECKPOINT_STREAM, type AuditCheckpoint } from '@docflow/contracts';
import { createPostgresEventStore, type NewEvent } from '@docflow/eventstore';
import { createLogger } from '@docflow/kit';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { startCheckpoints } from './checkpoints';
import { sealingEventStore } from './seal';
import { verifyStore } from './verify-store';

const url = process.env.POSTGRES_URL;
const enginesRequired = process.env.DOCFLOW_ENGINES_REQUIRED === '1';
const skip = url
  ? undefined
  : 'no PostgreSQL: POSTGRES_URL is not set (infra/local/up.sh writes it to .infra/env)';
const STREAM = 'docForm-7b2e1d3c4f5a6b7c8d9e0f1a';
const INTERVAL_MS = 20;
const TTL_MS = 400;

const docEvent = (): NewEvent => ({
  id: randomUUID(),
  type: 'DocumentFieldsUpdated',
  version: 1,
  data: { note: randomUUID() },
  metadata: { correlationId: 'c', actor: 'usr-a', timestamp: new Date().toISOString() },
});

describe('audit checkpoints of two processes on one shared store', {
  skip: enginesRequired ? undefined : skip,
}, () => {
  assert.ok(url, 'DOCFLOW_ENGINES_REQUIRED=1 but POSTGRES_URL is not set');
  const schema = `audit_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const dir = mkdtempSync(join(tmpdir(), 'docflow-checkpoints-shared-'));
  const log = createLogger('document', 'silent');
  after(() => rmSync(dir, { recursive: true, force: true }));

  const running: { stop(): Promise<void> }[] = [];
  after(() => Promise.all(running.map((p) => p.stop())));

  function startProcess(name: string) {
    const raw = createPostgresEventStore({ connectionString: url!, schema, pollIntervalMs: 50 });
    const sealed = sealingEventStore(raw);
    const db = openLocalDb(join(dir, `${name}.db`));
    const checkpoints = startCheckpoints(sealed, db, log, INTERVAL_MS, raw.serviceLease(TTL_MS));
    let stopped: Promise<void> | undefined;
    const started = {
      raw,
      sealed,
      stop: () => {
        stopped ??= (async () => {
          await checkpoints.stop();
          db.close();
          await raw.close();
        })();
        return stopped;
      },
    };
    running.push(started);
    return started;
  }

  it('one chain of checkpoints while both run and after the holder stops', async () => {
    const a = startProcess('a');
    const b = startProcess('b');
    const checkpoints = async () =>
      (await b.raw.readStream(AUDIT_CHECKPOINT_STREAM)).map((e) => e.data as unknown as AuditCheckpoint);
    async function changeAndAwaitCheckpoint(revision: number) {
      const before = (await checkpoints()).length;
      await b.sealed.append(STREAM, [docEvent()], revision);
      for (let i = 0; i < 250 && (await checkpoints()).length === before; i++) await sleep(INTERVAL_MS);
      assert.ok((await checkpoints()).length > before, `a checkpoint after revision ${revision + 1}`);
    }
    for (let revision = 0; revision < 4; revision++) await changeAndAwaitCheckpoint(revision);
    await a.stop(); // a may have held the lease: b takes over, linking to a's last checkpoint
    for (let revision = 4; revision < 8; revision++) await changeAndAwaitCheckpoint(revision);

    const chain = await checkpoints();
    for (let i = 1; i < chain.length; i++)
      assert.equal(
        chain[i]!.previousCheckpointId,
        chain[i - 1]!.checkpointId,
        `checkpoint ${i} links to ${i - 1}`,
      );
    const verdict = await verifyStore(b.raw, [STREAM]);
    assert.equal(verdict.checkpoint?.linked, true, JSON.stringify(verdict));
    assert.equal(verdict.valid, true, JSON.stringify(verdict));
  });
});
