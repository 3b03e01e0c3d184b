/** A document's history as auditors read it: each event with its chain hashes, ids and changes. */
import type { BundleHistoryEntry } from '@docflow/contracts';
import { type DocState, foldWithChanges } from '@docflow/document-model';
import type { RecordedEvent } from '@docflow/eventstore';
import type { z } from 'zod';

type Entry = z.infer<typeof BundleHistoryEntry>;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The trace id of a stored W3C `traceparent` (`version-traceid-parentid-flags`). */
const traceIdOf = (traceparent: unknown): string | undefined =>
  typeof traceparent === 'string' ? /^[\da-f]{2}-([\da-f]{32})-/.exec(traceparent)?.[1] : undefined;

/**
 * Folds the events oldest first into history entries and the state after the last; an event that no
 * longer parses (altered in the store) shows no changes and changes nothing.
 */
export function foldHistory(events: readonly RecordedEvent[]): { entries: Entry[]; state: DocState } {
  const { state, changes } = foldWithChanges(events);
  const entries = events.map((e, i): Entry => {
    const { metadata: m } = e;
    const traceId = traceIdOf(m.traceparent);
    return {
      rev: e.revision,
      type: e.type,
      time: m.timestamp,
      recordedAt: e.recordedAt,
      ...(m.actor ? { actor: m.actor } : {}),
      ...(m.runAs ? { runAs: m.runAs } : {}),
      ...(m.correlationId ? { correlationId: m.correlationId } : {}),
      ...(m.causationId ? { causationId: m.causationId } : {}),
      ...(traceId ? { traceId } : {}),
      data: e.data,
      hash: text(m.hash),
      prevHash: text(m.prevHash),
      changes: changes[i] ?? [],
    };
  });
  return { entries, state };
}
