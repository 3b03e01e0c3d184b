/**
 * Keeps the attachment index from the document service's events on the bus: the files of each
 * created document, and which documents were deleted (recorded by the document service as a
 * `WorkflowChanged` fact holding `DocumentDeleted`). Other event types pass by.
 */
import type { MessageHandler } from '@docflow/bus';
import { DocumentEvents, EventEnvelope } from '@docflow/contracts';
import { applyOnceDurably, type LocalDb } from '@docflow/kit/eventsourcing';
import type { AttachmentIndex } from './attachment-index';

const CONSUMER = 'files-attachments';

// Only what the index needs, so changes to the rest of the event do not concern this service.
const CreatedFiles = DocumentEvents.DocumentCreated.pick({ id: true, files: true });
const DOC_STREAM_PREFIX = 'docForm-';

function isDeletion(data: unknown): boolean {
  return DocumentEvents.WorkflowChanged.parse(data).events.some((e) => e.type === 'DocumentDeleted');
}

export function documentEventsHandler(db: LocalDb, index: AttachmentIndex): MessageHandler {
  return async function handleDocumentEvent(message) {
    const envelope = EventEnvelope.parse(message.value);
    if (envelope.type === 'DocumentCreated') {
      const { id, files } = CreatedFiles.parse(envelope.data);
      await applyOnceDurably(db, CONSUMER, envelope.id, () => index.attach(id, files));
    } else if (envelope.type === 'WorkflowChanged' && isDeletion(envelope.data)) {
      const docId = envelope.streamId.slice(DOC_STREAM_PREFIX.length);
      await applyOnceDurably(db, CONSUMER, envelope.id, () => index.markDeleted(docId));
    }
  };
}
