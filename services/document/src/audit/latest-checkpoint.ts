/** The heads the audit stream anchors: every complete checkpoint folded in order. Pure. */
import type { StreamHead } from '@docflow/audit';
import { AuditCheckpoint } from '@docflow/contracts';

export interface Checkpoint {
  checkpointId: string;
  root: string;
  streams: number;
  /** Every head anchored up to it: the last one each checkpoint gave per stream. */
  heads: Map<string, StreamHead>;
  /** When its last part was taken. */
  at: string;
  /** Whether each complete checkpoint names the complete one before it (none removed). */
  linked: boolean;
  /** A checkpoint of the layout before the bucketed root: `root` is `merkleRoot` over every head. */
  full: boolean;
}

/**
 * Walks the audit stream's events (upcast: upcasters/audit-checkpointed.ts in contracts) in order; a
 * checkpoint counts once all of its parts are there (one cut short by a crash between its appends is
 * passed over: its heads were written again in the next). A full checkpoint (the layout before the
 * bucketed root) holds every head and names no previous one; the first checkpoint after it may name
 * none either (the heads of an upgraded service start again, all changed). Undefined when there is no
 * complete checkpoint.
 */
export function latestCheckpoint(
  events: Iterable<{ data: Record<string, unknown>; metadata: { timestamp: string } }>,
): Checkpoint | undefined {
  const open = new Map<string, AuditCheckpoint[]>();
  const heads = new Map<string, StreamHead>();
  let latest: Checkpoint | undefined;
  let linked = true;
  for (const event of events) {
    const part = AuditCheckpoint.parse(event.data);
    const mine = [...(open.get(part.checkpointId) ?? []), part];
    open.set(part.checkpointId, mine);
    const numbers = new Set(mine.map((p) => p.part));
    if (mine.length !== part.parts || numbers.size !== part.parts || mine.some((p) => p.part > part.parts))
      continue;
    open.delete(part.checkpointId);
    for (const p of mine.sort((a, b) => a.part - b.part)) for (const h of p.heads) heads.set(h.streamId, h);
    const previous = latest?.checkpointId ?? null;
    linked &&=
      part.full === true ||
      part.previousCheckpointId === previous ||
      (part.previousCheckpointId === null && latest?.full === true);
    latest = {
      checkpointId: part.checkpointId,
      root: part.root,
      streams: part.streams,
      heads,
      at: event.metadata.timestamp,
      linked,
      full: part.full === true,
    };
  }
  return latest;
}
