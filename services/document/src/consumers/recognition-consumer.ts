/** Records the recognition service's results in the documents' streams, once each (by event id). */
import type { DeliveredMessage } from '@docflow/bus';
import {
  type DocumentEvent,
  docFormStream,
  EventEnvelope,
  parseRecognitionEvent,
  type RecognitionEvent,
} from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { executeCommand } from '@docflow/kit/eventsourcing';
import { type DocState, docAggregate } from '../documents/docForm';
import { decideRecoValidation } from '../documents/reco-validation';

/**
 * What a recognition result records: a result once per attachment (a second one — another instance,
 * a redelivery — is not recorded), with what it asks of validation (reco-validation.ts), and a
 * backfilled text once, for an attachment recognised without.
 */
export function decideRecognitionResult(
  state: DocState,
  result: RecognitionEvent,
  sourceId: string,
): DocumentEvent[] {
  if (!state.exists) return [];
  switch (result.type) {
    case 'FileTextRecognized':
      return state.recoTextMissing.includes(result.data.fileId)
        ? [{ type: 'RecognitionTextRecorded', data: { ...result.data, sourceId } }]
        : [];
    case 'FileRecognized':
      return state.recoPending.includes(result.data.fileId)
        ? [
            { type: 'RecognitionRecorded', data: { ...result.data, sourceId } },
            ...decideRecoValidation(state.recoValidation, result.data.parts),
          ]
        : [];
    case 'FileRecognitionFailed':
      return state.recoPending.includes(result.data.fileId)
        ? [{ type: 'RecognitionFailed', data: { ...result.data, sourceId } }]
        : [];
  }
}

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
      (state) => decideRecognitionResult(state, result, sourceId),
      { ...envelope.metadata, causationId: sourceId, timestamp: new Date().toISOString() },
    );
  };
}
