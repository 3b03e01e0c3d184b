/**
 * Anchors: at an interval, a checkpoint is appended to the audit stream and its root written to the
 * log, so that a stream removed or truncated afterwards no longer matches it (see verify-store.ts). A
 * checkpoint holds the heads changed since the previous one (in parts of HEADS_PER_EVENT heads), the
 * previous checkpoint's id, the number of document streams and the root over every head (bucket-root.ts
 * in packages/audit); folding every checkpoint in order gives every head it anchors. The heads are held
 * still while it is taken. Nothing is written while nothing changed.
 */
import { randomUUID } from 'node:crypto';
import { AUDIT_CHECKPOINT_STREAM, type AuditCheckpoint, upcast } from '@docflow/contracts';
import type { EventStore, ServiceLease } from '@docflow/eventstore';
import type { Logger } from '@docflow/kit';
import { type LocalDb, recordEvents, whileLeased } from '@docflow/kit/eventsourcing';
import { followStreamHeads } from './heads';
import { latestCheckpoint } from './latest-checkpoint';

export const CHECKPOINT_EVENT = 'AuditCheckpointed';
/** Heads per checkpoint event (about 120 bytes each): one append stays well below MAX_APPEND_BYTES. */
const HEADS_PER_EVENT = 4_000;

export interface Checkpoints {
  stop(): Promise<void>;
}

/**
 * On a store several processes of the document service share, only the holder of the checkpoint lease
 * takes checkpoints, so the audit stream stays one chain; elsewhere the process's own.
 */
export function startCheckpoints(
  store: EventStore,
  db: LocalDb,
  log: Logger,
  intervalMs: number,
  lease?: ServiceLease,
): Checkpoints {
  if (!lease) return checkpointEvery(store, db, log, intervalMs, false);
  return whileLeased({
    lease,
    name: 'document-audit-checkpoints',
    log,
    start() {
      const checkpoints = checkpointEvery(store, db, log, intervalMs, true);
      return { stop: () => checkpoints.stop(), position: () => undefined };
    },
  });
}

/**
 * Takes a checkpoint every `intervalMs` while something changed. `linkFromStream`: another process
 * may have checkpointed since this one last did, so the first checkpoint names the stream's last.
 */
function checkpointEvery(
  store: EventStore,
  db: LocalDb,
  log: Logger,
  intervalMs: number,
  linkFromStream: boolean,
): Checkpoints {
  let linkNextFromStream = linkFromStream;
  const heads = followStreamHeads(store, db, (err) =>
    log.warn({ err }, 'audit heads: applying events failed'),
  );
  heads.start();
  let running: Promise<void> | undefined;

  /**
   * The last complete checkpoint of the audit stream: what the next one names when local.db does not
   * know it (new, or lost and rebuilt), so that the chain of checkpoints stays linked.
   */
  async function lastInStream(): Promise<string | null> {
    const events = await store.readStream(AUDIT_CHECKPOINT_STREAM);
    return latestCheckpoint(events.map(upcast))?.checkpointId ?? null;
  }

  async function take(): Promise<void> {
    const changed = heads.changedCount();
    if (changed === 0) return;
    const { root, streams } = heads.root();
    const checkpointId = randomUUID();
    const previousCheckpointId =
      (linkNextFromStream ? null : heads.previousCheckpointId()) ?? (await lastInStream());
    const parts = Math.ceil(changed / HEADS_PER_EVENT);
    const timestamp = new Date().toISOString();
    let part = 0;
    for (const page of heads.changed(HEADS_PER_EVENT)) {
      part++;
      const data: AuditCheckpoint = {
        checkpointId,
        previousCheckpointId,
        part,
        parts,
        root,
        streams,
        heads: page,
      };
      await recordEvents(store, AUDIT_CHECKPOINT_STREAM, [{ type: CHECKPOINT_EVENT, data }], {
        correlationId: checkpointId,
        timestamp,
      });
    }
    heads.anchored(checkpointId);
    linkNextFromStream = false;
    log.info({ root, streams, changed, parts, at: timestamp }, 'audit checkpoint');
  }

  async function checkpoint(): Promise<void> {
    if (await heads.caughtUp()) await heads.holding(take);
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
