/**
 * Steps 9 and 10 of a create, when a `docResponse` part asks for a workflow action: the workflow
 * service runs it and its facts are recorded in the new document. The document exists whatever
 * happens to the action: a refused one is answered in `X-Error`.
 */
import type { EventStore } from '@docflow/eventstore';
import { commandMetadata } from '@docflow/kit/eventsourcing';
import type { CallContext } from '../../calls/identity-calls';
import { recordWorkflowFacts, runWorkflowCommand, type WorkflowCalls } from '../../calls/workflow-commands';
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
    const facts = await runWorkflowCommand(calls, ctx, doc, { kind: 'create', taskstatus });
    return { doc: await recordWorkflowFacts(store, doc.id, facts, commandMetadata(ctx.principal, ctx.ids)) };
  } catch (err) {
    return { doc, xError: workflowNotApplied(taskstatus, err) };
  }
}
