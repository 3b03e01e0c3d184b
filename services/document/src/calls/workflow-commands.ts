/**
 * How the document service runs a workflow command: the workflow service decides and appends to its
 * own stream; its facts reach the document's stream by the bus only (workflow-consumer.ts), and the
 * answer waits, bounded, until they are recorded (docs/decisions.md, "Each fact by one road").
 */
import {
  type DocResponse,
  STATE_CODES,
  type WorkflowActions,
  type WorkflowCommandRequest,
  workflowActionsRoute,
  workflowCommandRoute,
} from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { internalClient, problems, type ServiceClient } from '@docflow/kit/http';
import type { Task } from '@docflow/workflow-model';
import { workflowFactsRecorded } from '../consumers/recorded-workflow-facts';
import type { DocState } from '../documents/docForm';
import { checkValidationHold } from '../documents/reco-validation';
import type { CallContext } from './identity-calls';

export interface WorkflowFact {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

export interface WorkflowCalls {
  workflow: ServiceClient;
  internalToken: string;
  /** How long an answer waits for its facts to be recorded (default FACTS_WAIT_MS). */
  factsWaitMs?: number;
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
  if (command.kind === 'create' || command.kind === 'manage') checkValidationHold(doc, command.taskstatus);
  const body: WorkflowCommandRequest = {
    registration: registrationOf(doc),
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

/**
 * Runs one command (as `runWorkflowCommand`) and answers the document once the bus consumer recorded
 * its facts; 503 (with Retry-After) when they are not recorded within the bound: the workflow service
 * holds the command, and the document shows it once the bus delivers.
 */
export async function applyWorkflowCommand(
  store: EventStore,
  calls: WorkflowCalls,
  ctx: CallContext,
  doc: DocState,
  command: WorkflowCommandRequest['command'],
  pinned = false,
): Promise<DocState> {
  const facts = await runWorkflowCommand(calls, ctx, doc, command, pinned);
  const recorded = await workflowFactsRecorded(
    store,
    doc.id,
    facts.map((f) => f.id),
    calls.factsWaitMs,
  );
  if (recorded) return recorded;
  throw problems.unavailable(
    'the workflow service accepted the command; the document shows it once the message bus delivers it',
  );
}

/** The document's registration, which the workflow service decides every command of it with. */
const registrationOf = (doc: DocState): WorkflowCommandRequest['registration'] => ({
  form: doc.form,
  author: doc.author,
  workflow: doc.workflowConfig ?? {},
});

/** The workflow commands the caller may send now, as the workflow service decides them. */
export async function workflowActions(
  calls: WorkflowCalls,
  ctx: CallContext,
  doc: DocState,
): Promise<WorkflowActions> {
  return internalClient(calls.workflow, calls.internalToken).call(
    workflowActionsRoute,
    { params: { docId: doc.id }, body: { registration: registrationOf(doc) } },
    ctx,
  );
}

export function toDocResponse(task: Task): DocResponse {
  return {
    respId: task.respId,
    state: STATE_CODES[task.phase],
    step: task.step,
    iteration: task.iteration,
    assignee: task.assignee,
    ...(task.onBehalfOf ? { onBehalfOf: task.onBehalfOf } : {}),
    taskstatus: task.taskstatus,
    content: task.content,
    datecreated: task.openedAt,
    datedue: task.dueAt ?? '',
  };
}
