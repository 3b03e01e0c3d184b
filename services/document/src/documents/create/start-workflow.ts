/**
 * Steps 9 and 10 of a create, when a `docResponse` part asks for a workflow action: the workflow
 * service runs it, and the answer waits until its facts reach the new document from the bus. The
 * document exists whatever happens to the action: a refused one (or one not recorded in time, 503)
 * is answered in `X-Error`.
 */
import type { EventStore } from '@docflow/eventstore';
import type { CallContext } from '../../calls/identity-calls';
import { applyWorkflowCommand, type WorkflowCalls } from '../../calls/workflow-commands';
import type { DocState } from '../docForm';
import type { CreateParts } from './read-parts';
import { workflowNotApplied } from './x-error';

export interface WorkflowStart {
  doc: DocState;
  /** Why the action was not applied, for the `X-Error` header. */
  xError?: string;
}

/** @example const { doc, xError } = await startWorkflow(store, calls, ctx, created, action.taskstatus); */
export async function startWorkflow(
  store: EventStore,
  calls: WorkflowCalls,
  ctx: CallContext,
  doc: DocState,
  taskstatus: NonNullable<CreateParts['action']>['taskstatus'],
): Promise<WorkflowStart> {
  try {
    return { doc: await applyWorkflowCommand(store, calls, ctx, doc, { kind: 'create', taskstatus }) };
  } catch (err) {
    return { doc, xError: workflowNotApplied(taskstatus, err) };
  }
}
