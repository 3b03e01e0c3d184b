/**
 * Records the workflow service's facts from the bus into the documents' streams: the path that makes
 * sure nothing is lost when the synchronous recording did not happen (a crash, a timeout).
 */
import type { DeliveredMessage } from '@docflow/bus';
import { EventEnvelope } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { recordWorkflowFacts } from '../calls/workflow-commands';

export function workflowFactsHandler(store: EventStore) {
  return async function handleWorkflowFact(message: DeliveredMessage): Promise<void> {
    const envelope = EventEnvelope.parse(message.value);
    const docId = envelope.streamId.slice('workflow-'.length);
    await recordWorkflowFacts(store, docId, [{ id: envelope.id, type: envelope.type, data: envelope.data }], {
      ...envelope.metadata,
      causationId: envelope.id,
    });
  };
}
