/**
 * `AuditCheckpointed` (the `audit-checkpoints` stream), in three layouts all stored as version 1:
 * - 0e506f2: one event per checkpoint, every head: `{ root, streams, heads }`, `root` the Merkle root
 *   (packages/audit merkle.ts) over every head;
 * - 52867b3: the same split in parts of 4,000 heads sharing an id: `{ checkpointId, part, parts, root,
 *   streams, heads }`;
 * - b64c462: the heads changed since the previous checkpoint, named by id, under the bucketed root:
 *   `{ checkpointId, previousCheckpointId, part, parts, root, streams, heads }` (= version 2).
 * The first two become version 2 marked `full`: they hold every head and their root is over them all,
 * so they need no previous checkpoint (latest-checkpoint.ts and verify-store.ts in the document service).
 */
import type { UpcastStep } from './step';

const toVersion2: UpcastStep = (data, event) => {
  if ('previousCheckpointId' in data) return data;
  const parted = 'checkpointId' in data ? data : { checkpointId: event.id, part: 1, parts: 1, ...data };
  return { ...parted, previousCheckpointId: null, full: true };
};

export const auditCheckpointedSteps: readonly UpcastStep[] = [toVersion2];
