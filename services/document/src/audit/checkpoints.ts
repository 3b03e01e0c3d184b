/**
 * Anchors: at an interval, a checkpoint — the Merkle root over every document stream's head hash,
 * with the heads — is appended to the audit stream and written to the log, so that a stream removed
 * or truncated afterwards no longer matches it (see verify-store.ts). Nothing is written while
 * nothing changed.
 */
import { randomUUID } from 'node:crypto';
import { merkleRoot } from '@docflow/audit';
import { AUDIT_CHECKPOINT_STREAM, type AuditCheckpoint } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import type { Logger } from '@docflow/kit';
import { followStreamHeads } from './heads';

export const CHECKPOINT_EVENT = 'AuditCheckpointed';

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
    const data: AuditCheckpoint = { root, streams: list.length, heads: list };
    const metadata = { correlationId: randomUUID(), timestamp: new Date().toISOString() };
    await store.append(
      AUDIT_CHECKPOINT_STREAM,
      [{ id: randomUUID(), type: CHECKPOINT_EVENT, version: 1, data, metadata }],
      'any',
    );
    lastRoot = root;
    log.info({ root, streams: list.length, at: metadata.timestamp }, 'audit checkpoint');
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
