/**
 * Feeds the correction memory from the bus (docs/decisions.md, "Recognition memory"): a person's
 * validation of a recognised part (`RecoDataValidated` on the document topic) is compared with the part
 * as this service recorded it, each changed value is looked for on the file's kept page layouts, and its
 * place is appended to the form's `idpmemory-<formName>` stream. Redelivery appends nothing new
 * (decideRemember). Layouts that are gone teach the places the values were read at; a blob store that
 * cannot answer now fails the message, which the bus delivers again.
 */

import { BlobNotFound, type BlobStore } from '@docflow/blobstore';
import {
  DocumentEvents,
  EventEnvelope,
  type PageLayout,
  recognitionMemoryStream,
  recognitionStream,
} from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { executeCommand, loadAggregate } from '@docflow/kit/eventsourcing';
import { readLayouts } from '../layout-store';
import { decideCorrections } from './learn';
import { decideRemember, memoryAggregate } from './memory';
import { recognizedPartsAggregate } from './recognized-parts';

const DOC_PREFIX = 'docForm-';

async function keptLayouts(blobs: BlobStore, key: string | undefined): Promise<PageLayout[] | undefined> {
  if (key === undefined) return undefined;
  try {
    return await readLayouts(blobs, key);
  } catch (err) {
    if (err instanceof BlobNotFound) return undefined;
    throw err;
  }
}

export function correctionsHandler(deps: { store: EventStore; blobs: BlobStore }) {
  return async function handleDocumentEvent(message: { value: Record<string, unknown> }): Promise<void> {
    const envelope = EventEnvelope.parse(message.value);
    if (envelope.type !== 'RecoDataValidated' || !envelope.streamId.startsWith(DOC_PREFIX)) return;
    const validated = DocumentEvents.RecoDataValidated.parse(envelope.data);
    if (validated.by === 'recognition') return;
    const docId = envelope.streamId.slice(DOC_PREFIX.length);
    const { state } = await loadAggregate(deps.store, recognitionStream(docId), recognizedPartsAggregate);
    const part = state.parts[validated.recoId];
    if (!part || !state.form) return;
    const learnt = decideCorrections({
      docId,
      part,
      corrected: validated.valuesByTags,
      at: envelope.metadata.timestamp,
      pages: await keptLayouts(deps.blobs, state.layouts[validated.recoId]),
    });
    if (learnt.length === 0) return;
    await executeCommand(
      deps.store,
      recognitionMemoryStream(state.form),
      memoryAggregate,
      (memory) => decideRemember(memory, learnt),
      { ...envelope.metadata, causationId: envelope.id, timestamp: new Date().toISOString() },
    );
  };
}
