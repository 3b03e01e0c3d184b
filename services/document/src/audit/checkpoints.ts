/**
 * Anchors: at an interval, a checkpoint — the Merkle root over every document stream's head hash,
 * with the heads, in parts of HEADS_PER_EVENT heads — is appended to the audit stream and written to
 * the log, so that a stream removed or truncated afterwards no longer matches it (see verify-store.ts).
 * Nothing is written while nothing changed.
 */
import { randomUUID } from 'node:crypto';
import { merkleRoot } from '@docflow/audit';
import { AUDIT_CHECKPOINT_STREAM, type AuditCheckpoint } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import type { Logger } from '@docflow/kit';
import { followStreamHeads } from './heads';

export const CHECKPOINT_EVENT = 'AuditCheckpointed';
/** Heads per checkpoint event (about 120 bytes each): one append stays well below MAX_APPEND_BYTES. */
const HEADS_PER_EVENT = 4_000;

export interface Checkpoints {
  stop(): Promise<void>;
}

export function startCheckpoints(store: EventStore, log: Logger, intervalMs: number): Checkpoints {
  const heads = followStreamHeads(store, (err) => log.warn({ err }, 'audit heads: subscription failed'));
  let lastRoot: string | undefined;
  let running: Promise<void> | undefined;

  async function checkpoint(): Promise<void> {
    if (!(await heads.caughtUp())) return;
    const list = heads.heads();
    if (list.length === 0) return;
    const root = merkleRoot(list);
    if (root === lastRoot) return;
    const checkpointId = randomUUID();
    const parts = Math.ceil(list.length / HEADS_PER_EVENT);
    const timestamp = new Date().toISOString();
    for (let part = 1; part <= parts; part++) {
      const heads = list.slice((part - 1) * HEADS_PER_EVENT, part * HEADS_PER_EVENT);
      const data: AuditCheckpoint = { checkpointId, part, parts, root, streams: list.length, heads };
      const metadata = { correlationId: checkpointId, timestamp };
      await store.append(
        AUDIT_CHECKPOINT_STREAM,
        [{ id: randomUUID(), type: CHECKPOINT_EVENT, version: 1, data, metadata }],
        'any',
      );
    }
    lastRoot = root;
    log.info({ root, streams: list.length, parts, at: timestamp }, 'audit checkpoint');
  }

  const timer = setInterval(() => {
    running ??= checkpoint()
      .catch((err: unknown) => log.warn({ err }, 'audit checkpoint failed; retried at the next interval'))
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
      await heads.stop();
    },
  };
}
