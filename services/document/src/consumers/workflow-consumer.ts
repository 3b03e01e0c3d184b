/**
 * Records the workflow service's facts from the bus into the documents' streams: the one road by which
 * they reach the document service (docs/decisions.md, "Each fact by one road"). A command's answer
 * waits for this recording (recorded-workflow-facts.ts).
 */
import type { DeliveredMessage } from '@docflow/bus';
import { type DocumentEvent, docFormStream, EventEnvelope } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { executeCommand } from '@docflow/kit/eventsourcing';
import type { WorkflowFact } from '../calls/workflow-commands';
import { type DocState, docAggregate } from '../documents/docForm';
import { wakeFactWaiters } from './recorded-workflow-facts';

/** The fact as one WorkflowChanged, unless the document's stream holds it already (a redelivery). */
function decideWorkflowFact(state: DocState, fact: WorkflowFact): DocumentEvent[] {
  if (!state.exists || state.workflowSourceIds.includes(fact.id)) return [];
  return [
    {
      type: 'WorkflowChanged',
      data: { sourceIds: [fact.id], events: [{ type: fact.type, data: fact.data }] },
    },
  ];
}

export function workflowFactsHandler(store: EventStore) {
  return async function handleWorkflowFact(message: DeliveredMessage): Promise<void> {
    const envelope = EventEnvelope.parse(message.value);
    const docId = envelope.streamId.slice('workflow-'.length);
    const fact = { id: envelope.id, type: envelope.type, data: envelope.data };
    await executeCommand(
      store,
      docFormStream(docId),
      docAggregate,
      (state) => decideWorkflowFact(state, fact),
      {
        ...envelope.metadata,
        causationId: envelope.id,
      },
    );
    wakeFactWaiters(store, docId);
  };
}
