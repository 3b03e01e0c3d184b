/**
 * Handing an open task to another person (docs/decisions.md, "Reassignment"): the stage's participants,
 * the author and holders of svcAdminDocRW may; the old task closes and one for the new person opens in
 * the same stage. Pure: the person named is resolved beforehand.
 */
import { capabilitiesOf, noActivePerson, rejections, type WorkflowEvent } from '@docflow/contracts';
import { isDeleted, stageTasks, type Task, type WorkflowState } from '@docflow/workflow-model';
import type { ManagePrincipal } from './access';

export interface ReassignTask {
  respId: string;
  /** The person named, as the request named them (`usr-` id or e-mail). */
  toRef: string;
  /** Their `usr-` id when `toRef` names an active person. */
  to: string | undefined;
  reason: string;
  principal: ManagePrincipal;
  at: string;
  newId: () => string;
}

/** Everyone ever given a task in the stage of `respId` (the current assignees among them). */
const stageAssignees = (state: WorkflowState, respId: string): string[] => {
  const task = state.tasks[respId];
  if (!task) return [];
  return stageTasks(state, task).map((t) => t.assignee);
};

function canReassign(principal: ManagePrincipal, state: WorkflowState, respId: string): boolean {
  return (
    state.author === principal.subject ||
    capabilitiesOf(principal).manageOthersWorkflows ||
    stageAssignees(state, respId).includes(principal.subject)
  );
}

/**
 * The task `principal` may hand over now, whoever to; else why not. The one rule for both the command
 * and `embed=actions` (`reassign`), so the console offers no hand-over the command would refuse.
 */
export function reassignableTask(principal: ManagePrincipal, state: WorkflowState, respId: string): Task {
  if (!state.registered || isDeleted(state)) throw rejections.notFound('no such document');
  const task = state.tasks[respId];
  if (!task) throw rejections.notFound(`no docResponse ${respId} on this document`);
  if (!canReassign(principal, state, respId))
    throw rejections.forbidden(
      `docResponse ${respId} may be handed over by its stage's participants, the author and svcAdminDocRW`,
    );
  if (state.status === 'blocked') throw rejections.notApplicable('the document is blocked');
  if (task.state !== 'open') throw rejections.notApplicable(`docResponse ${task.respId} is not open`);
  return task;
}

export function decideReassign(cmd: ReassignTask, state: WorkflowState): WorkflowEvent[] {
  const task = reassignableTask(cmd.principal, state, cmd.respId);
  if (!cmd.to) throw noActivePerson(cmd.toRef);
  if (task.assignee === cmd.to)
    throw rejections.notApplicable(`docResponse ${task.respId} is theirs already`);
  const { phase, step, iteration } = task;
  const busy = stageTasks(state, task).some((t) => t.state === 'open' && t.assignee === cmd.to);
  if (busy) throw rejections.notApplicable(`${cmd.toRef} has a task of this stage already`);
  return [
    {
      type: 'TaskReassigned',
      data: { respId: task.respId, from: task.assignee, to: cmd.to, reason: cmd.reason, at: cmd.at },
    },
    {
      type: 'TaskOpened',
      data: { respId: cmd.newId(), phase, step, iteration, assignee: cmd.to, at: cmd.at },
    },
  ];
}
