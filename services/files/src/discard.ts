/** Discarding a stored file: FileDiscarded recorded (once), then its blob released if no other file holds it. */
import { fileStream } from '@docflow/contracts';
import type { EventMetadata, EventStore } from '@docflow/eventstore';
import { executeCommand } from '@docflow/kit/eventsourcing';
import type { AttachmentIndex } from './attachment-index';
import type { BlobHolders } from './blob-holders';
import { decideDiscard } from './businessLogic';
import { type DiscardReason, fileAggregate } from './file';

/** Throws 404 for an unknown file and 409 for one a document holds; a discarded file is fine (idempotent). */
export type DiscardFile = (id: string, reason: DiscardReason, metadata: EventMetadata) => Promise<void>;

export interface FileDiscarderDeps {
  store: EventStore;
  index: AttachmentIndex;
  holders: BlobHolders;
}

export function fileDiscarder({ store, index, holders }: FileDiscarderDeps): DiscardFile {
  return async function discardFile(id, reason, metadata) {
    const { state } = await executeCommand(
      store,
      fileStream(id),
      fileAggregate,
      (current) => decideDiscard({ id, reason, attached: index.isFileAttached(id) }, current),
      metadata,
    );
    // Also when it was discarded before: a release cut short then (a crash, a failing blob store)
    // is finished now.
    await holders.release({ id, blobKey: state.stored!.blobKey });
  };
}
