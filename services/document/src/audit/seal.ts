/**
 * Chains every event appended to a `docForm-<id>` stream to the one before it: its metadata carries
 * `prevHash` (the previous event's `hash`) and `hash` (see @docflow/audit's chain). Pure; the
 * document service's event store applies it to every such append (`sealingEventStore`).
 */
import { type ChainedEvent, eventHash, GENESIS_HASH } from '@docflow/audit';
import { docFormStream } from '@docflow/contracts';
import type { EventMetadata, EventStore, NewEvent, RecordedEvent } from '@docflow/eventstore';
import { stampEventStore } from '@docflow/kit/eventsourcing';

export function sealDocEvent(
  event: NewEvent,
  revision: number,
  previous: EventMetadata | undefined,
): EventMetadata {
  const { metadata } = event;
  const prevHash = revision === 1 ? GENESIS_HASH : (text(previous?.hash) ?? '');
  const hash = eventHash(prevHash, chainFields(revision, event.type, event.data, metadata));
  return { ...metadata, prevHash, hash };
}

/** `store` with every event appended to a `docForm-` stream sealed into its stream's chain. */
export function sealingEventStore(store: EventStore): EventStore {
  return stampEventStore(store, docFormStream(''), sealDocEvent);
}

function chainFields(revision: number, type: string, data: Record<string, unknown>, metadata: EventMetadata) {
  return {
    revision,
    type,
    data,
    time: metadata.timestamp,
    ...(metadata.actor ? { actor: metadata.actor } : {}),
    ...(metadata.runAs ? { runAs: metadata.runAs } : {}),
    ...(metadata.correlationId ? { correlationId: metadata.correlationId } : {}),
    ...(metadata.causationId ? { causationId: metadata.causationId } : {}),
  };
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A recorded event as the chain sees it. */
export function chainedEvent(event: RecordedEvent): ChainedEvent {
  return {
    ...chainFields(event.revision, event.type, event.data, event.metadata),
    hash: text(event.metadata.hash),
    prevHash: text(event.metadata.prevHash),
  };
}
