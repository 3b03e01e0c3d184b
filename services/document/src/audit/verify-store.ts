/**
 * Verifies every document stream of a store: its hash chain, and against the heads the audit stream
 * anchors (every complete checkpoint folded, latest-checkpoint.ts), whose root it recomputes — a stream
 * anchored must still exist, reach the anchored revision and have its hash there. Names the first bad
 * revision of each stream that fails.
 */
import { bucketedRoot, merkleRoot, type StreamHead, verifyChain } from '@docflow/audit';
import { AUDIT_CHECKPOINT_STREAM, upcast } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { latestCheckpoint } from './latest-checkpoint';
import { chainedEvent } from './seal';

export interface StreamProblem {
  streamId: string;
  firstBadRevision: number;
  reason: string;
}

export interface StoreVerdict {
  valid: boolean;
  streams: number;
  checkpoint: {
    root: string;
    streams: number;
    at: string;
    rootMatchesHeads: boolean;
    /** Each checkpoint names the one before it. */
    linked: boolean;
  } | null;
  problems: StreamProblem[];
}

export async function verifyStore(store: EventStore, streamIds: readonly string[]): Promise<StoreVerdict> {
  const checkpoint = latestCheckpoint((await store.readStream(AUDIT_CHECKPOINT_STREAM)).map(upcast));
  const anchored = checkpoint?.heads ?? new Map();
  const all = [...new Set([...streamIds, ...anchored.keys()])].sort();
  const problems: StreamProblem[] = [];
  for (const streamId of all) {
    const events = await store.readStream(streamId);
    const head = anchored.get(streamId);
    const chain = verifyChain(events.map(chainedEvent));
    const last = events.at(-1)?.revision ?? 0;
    const bad = (firstBadRevision: number, reason: string) =>
      problems.push({ streamId, firstBadRevision, reason });
    if (head && events.length === 0)
      bad(1, `the stream is gone; the checkpoint holds it at revision ${head.revision}`);
    else if (!chain.valid) bad(chain.firstBadRevision ?? 1, chain.reason ?? '');
    else if (head && last < head.revision)
      bad(
        last + 1,
        `revision ${last + 1} is missing: the stream ends at ${last}, the checkpoint holds ${head.revision}`,
      );
    else if (head && events.find((e) => e.revision === head.revision)?.metadata.hash !== head.hash)
      bad(head.revision, 'its hash is not the one the checkpoint holds (the stream was rewritten)');
  }
  const rootOf = checkpoint?.full ? (heads: Iterable<StreamHead>) => merkleRoot([...heads]) : bucketedRoot;
  const rootMatchesHeads = checkpoint
    ? rootOf(anchored.values()) === checkpoint.root && anchored.size === checkpoint.streams
    : true;
  const linked = checkpoint?.linked ?? true;
  return {
    valid: problems.length === 0 && rootMatchesHeads && linked,
    streams: all.length,
    checkpoint: checkpoint
      ? { root: checkpoint.root, streams: checkpoint.streams, at: checkpoint.at, rootMatchesHeads, linked }
      : null,
    problems,
  };
}
