/**
 * Chains every event appended to a `docForm-<id>` stream to the one before it: its metadata carries
 * `prevHash` (the loaded state's head hash) and `hash` (see @docflow/audit's chain). Pure.
 */
import { type ChainedEvent, eventHash, GENESIS_HASH } from '@docflow/audit';
import type { DocumentEvent } from '@docflow/contracts';
import type { EventMetadata, RecordedEvent } from '@docflow/eventstore';
import type { EventContext } from '@docflow/kit/eventsourcing';
import type { DocState } from '../docForm';

export function sealDocEvent(state: DocState, event: DocumentEvent, context: EventContext): EventMetadata {
  const { metadata, revision } = context;
  const prevHash = revision === 1 ? GENESIS_HASH : state.headHash;
  const hash = eventHash(prevHash, chainFields(revision, event.type, event.data, metadata));
  return { ...metadata, prevHash, hash };
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
