/** The newest complete checkpoint of the audit stream, its parts put together. Pure. */
import type { StreamHead } from '@docflow/audit';
import { AuditCheckpoint } from '@docflow/contracts';

export interface Checkpoint {
  checkpointId: string;
  root: string;
  streams: number;
  heads: StreamHead[];
  /** When its last part was taken. */
  at: string;
}

/**
 * Walks the audit stream's events from the newest: the first checkpoint all of whose parts are there
 * (a checkpoint cut short by a crash between its appends is passed over). Undefined when there is none.
 */
export function latestCheckpoint(
  events: readonly { data: Record<string, unknown>; metadata: { timestamp: string } }[],
): Checkpoint | undefined {
  const parts = events.map((e) => ({ ...AuditCheckpoint.parse(e.data), at: e.metadata.timestamp }));
  for (let i = parts.length - 1; i >= 0; i--) {
    const last = parts[i]!;
    const mine = parts.filter((p) => p.checkpointId === last.checkpointId).sort((a, b) => a.part - b.part);
    if (mine.length !== last.parts || mine.some((p, n) => p.part !== n + 1)) continue;
    return {
      checkpointId: last.checkpointId,
      root: last.root,
      streams: last.streams,
      heads: mine.flatMap((p) => p.heads),
      at: mine.at(-1)!.at,
    };
  }
  return undefined;
}
