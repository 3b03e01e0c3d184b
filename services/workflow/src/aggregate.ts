/** The workflow aggregate the service loads and appends to: the shared fact model with its event parser. */
import { parseWorkflowEvent, type WorkflowEvent } from '@docflow/contracts';
import type { Aggregate } from '@docflow/kit/eventsourcing';
import { evolveWorkflow, initialWorkflow, type WorkflowState } from '@docflow/workflow-model';

export const workflowAggregate: Aggregate<WorkflowState, WorkflowEvent> = {
  initial: initialWorkflow,
  evolve: evolveWorkflow,
  parse: parseWorkflowEvent,
};
