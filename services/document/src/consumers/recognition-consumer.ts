/** Records the recognition service's results in the documents' streams, once each (by event id). */
import type { DeliveredMessage } from '@docflow/bus';
import { type DocumentEvent, docFormStream, EventEnvelope, parseRecognitionEvent } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { executeCommand } from '@docflow/kit/eventsourcing';
import { docAggregate } from '../documents/docForm';

export function recognitionResultsHandler(store: EventStore) {
  return async function handleRecognitionResult(message: DeliveredMessage): Promise<void> {
    const envelope = EventEnvelope.parse(message.value);
    const docId = envelope.streamId.slice('recognition-'.length);
    const result = parseRecognitionEvent(envelope.type, envelope.data);
    const sourceId = envelope.id;
    await executeCommand(
      store,
      docFormStream(docId),
      docAggregate,
      (state): DocumentEvent[] => {
        // Once per attachment: a second result (another instance, a redelivery) is not recorded.
        if (!state.exists || !state.recoPending.includes(result.data.fileId)) return [];
        return result.type === 'FileRecognized'
          ? [{ type: 'RecognitionRecorded', data: { ...result.data, sourceId } }]
          : [{ type: 'RecognitionFailed', data: { ...result.data, sourceId } }];
      },
      { ...envelope.metadata, causationId: sourceId, timestamp: new Date().toISOString() },
    );
  };
}
