/** What readers of a document's workflow see: the caller's open task and the inbox's owners. */
import { type DeputiesOf, isEnabledDeputy } from '@docflow/contracts';
import { openTasks, type Task, type WorkflowState } from './workflow';

/**
 * The open task `embed=docResponse` shows to `userId`: their own first, else the open task of an
 * assignee whose enabled deputy they are (the first opened, when they stand in for several).
 */
export function openTaskFor(state: WorkflowState, userId: string, deputiesOf: DeputiesOf): Task | undefined {
  const open = openTasks(state);
  return (
    open.find((t) => t.assignee === userId) ??
    open.find((t) => isEnabledDeputy(deputiesOf, t.assignee, userId))
  );
}

/** Assignees with an open task, once each: the users whose inbox (and whose deputies' inbox) lists it. */
export function inboxAssignees(state: WorkflowState): string[] {
  return [...new Set(openTasks(state).map((t) => t.assignee))];
}
