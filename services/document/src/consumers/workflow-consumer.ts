/**
 * Records the workflow service's facts from the bus into the documents' streams: the one road by which
 * they reach the document service (docs/decisions.md, "Each fact by one road"). The facts of one
 * command arrive as one message (the workflow relay publishes each append whole) and are recorded as
 * one WorkflowChanged; a command's answer waits for this recording (recorded-workflow-facts.ts).
 */
import type { DeliveredMessage } from '@docflow/bus';
import { type DocumentEvent, docFormStream, eventsOfAppendMessage } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { executeCommand } from '@docflow/kit/eventsourcing';
import type { WorkflowFact } from '../calls/workflow-commands';
import { type DocState, docAggregate } from '../documents/docForm';
import { wakeFactWaiters } from './recorded-workflow-facts';

/** The facts the document's stream does not hold yet (a redelivery holds them), as one WorkflowChanged. */
export function decideWorkflowFacts(state: DocState, facts: WorkflowFact[]): DocumentEvent[] {
  const recorded = new Set(state.workflowSourceIds);
  const fresh = facts.filter((f) => !recorded.has(f.id));
  if (!state.exists || fresh.length === 0) return [];
  return [
    {
      type: 'WorkflowChanged',
      data: { sourceIds: fresh.map((f) => f.id), events: fresh.map(({ type, data }) => ({ type, data })) },
    },
  ];
}

export function workflowFactsHandler(store: EventStore) {
  return async function handleWorkflowFacts(message: DeliveredMessage): Promise<void> {
    const envelopes = eventsOfAppendMessage(message.value);
    const first = envelopes[0]!;
    const docId = first.streamId.slice('workflow-'.length);
    const facts = envelopes.map(({ id, type, data }) => ({ id, type, data }));
    await executeCommand(
      store,
      docFormStream(docId),
      docAggregate,
      (state) => decideWorkflowFacts(state, facts),
      { ...first.metadata, causationId: first.id },
    );
    wakeFactWaiters(store, docId);
  };
}
