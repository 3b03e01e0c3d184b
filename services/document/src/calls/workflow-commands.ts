/**
 * How the document service runs a workflow command: the workflow service decides and appends to its
 * own stream; the facts it returns are recorded in the document's stream at once (so the answer and
 * a GET right after it show them), and again, idempotently, when they arrive from the bus.
 */
import {
  type DocResponse,
  type DocumentEvent,
  docFormStream,
  STATE_CODES,
  type WorkflowCommandRequest,
  workflowCommandRoute,
} from '@docflow/contracts';
import type { EventMetadata, EventStore } from '@docflow/eventstore';
import { executeCommand } from '@docflow/kit/eventsourcing';
import { internalClient, type ServiceClient } from '@docflow/kit/http';
import type { Task } from '@docflow/workflow-model';
import { type DocState, docAggregate } from '../documents/docForm';
import type { CallContext } from './identity-calls';

export interface WorkflowFact {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

/**
 * Attempts beyond one per fact: the bus consumer records the same facts one message at a time, so
 * while a command records all of them at once each of its attempts can lose to one more fact.
 */
const MAX_ATTEMPTS = 5;

/** The facts of `facts` the document's stream does not hold yet, as one WorkflowChanged (none if none). */
function decideWorkflowFacts(state: DocState, facts: WorkflowFact[]): DocumentEvent[] {
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

/** Appends the facts the document's stream does not hold yet as one WorkflowChanged; returns the state. */
export async function recordWorkflowFacts(
  store: EventStore,
  docId: string,
  facts: WorkflowFact[],
  metadata: EventMetadata,
): Promise<DocState> {
  const decide = (state: DocState) => decideWorkflowFacts(state, facts);
  const maxAttempts = facts.length + MAX_ATTEMPTS;
  return (await executeCommand(store, docFormStream(docId), docAggregate, decide, metadata, { maxAttempts }))
    .state;
}

export interface WorkflowCalls {
  workflow: ServiceClient;
  internalToken: string;
}

/**
 * Sends one command to the workflow service; its problems (400/403/404/412/422) become ours.
 *
 * `pinned` (an If-Match naming `doc`'s revision): the workflow service decides and appends the move,
 * so the precondition is held there, as the expected revision of its stream — the revision `doc`
 * reflects, one per fact it recorded. Once that stream moved on (a concurrent command won, or facts
 * this copy has not recorded yet were appended) the command is refused with 412 and nothing changes.
 */
export async function runWorkflowCommand(
  calls: WorkflowCalls,
  ctx: CallContext,
  doc: DocState,
  command: WorkflowCommandRequest['command'],
  pinned = false,
): Promise<WorkflowFact[]> {
  const body: WorkflowCommandRequest = {
    registration: { form: doc.form, author: doc.author, workflow: doc.workflowConfig ?? {} },
    command,
    ...(pinned ? { expectedRevision: doc.workflowSourceIds.length } : {}),
  };
  const { events } = await internalClient(calls.workflow, calls.internalToken).call(
    workflowCommandRoute,
    { params: { docId: doc.id }, body },
    ctx,
  );
  return events;
}

export function toDocResponse(task: Task, doc: DocState): DocResponse {
  return {
    respId: task.respId,
    state: STATE_CODES[task.phase],
    step: task.step,
    iteration: task.iteration,
    assignee: task.assignee,
    taskstatus: task.taskstatus,
    content: task.content,
    datecreated: task.openedAt,
    datedue: doc.workflow.dueDate,
  };
}
