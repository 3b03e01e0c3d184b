/**
 * When an answer ends its stage (docs/decisions.md, "Quorum"): the stage's quorum — all, any one, or N
 * approvals — and the form's `onDecline`. Pure: the state before the answer and the answer in.
 */
import { RESPONSE_TASK_STATUS, type ResponseTaskStatus } from '@docflow/contracts';
import { stageTasks, type Task, type WorkflowState } from '@docflow/workflow-model';

/** `open`: the stage waits for more answers; `complete`: it reached its quorum; `declined`: the phase ends. */
export type StageOutcome = 'open' | 'complete' | 'declined';

/** Tasks of the stage `task` belongs to that still count: open or answered (a handed-over task does not). */
const seatsOf = (state: WorkflowState, task: Task) =>
  stageTasks(state, task).filter((t) => t.state !== 'cancelled');

export function stageOutcome(state: WorkflowState, task: Task, taskstatus: ResponseTaskStatus): StageOutcome {
  const declines = taskstatus === RESPONSE_TASK_STATUS.decline;
  const workflow = state.workflow;
  if (declines && workflow.onDecline !== 'countAgainstQuorum') return 'declined';
  const seats = seatsOf(state, task);
  const others = seats.filter((t) => t.respId !== task.respId);
  const approvals =
    others.filter((t) => t.state === 'answered' && t.taskstatus !== RESPONSE_TASK_STATUS.decline).length +
    (declines ? 0 : 1);
  const open = others.filter((t) => t.state === 'open').length;
  const quorum = workflow[task.phase]?.stages[task.step - 1]?.quorum ?? 'all';
  const needed = quorum === 'all' ? seats.length : quorum === 'any' ? 1 : Math.min(quorum, seats.length);
  if (approvals >= needed) return 'complete';
  return approvals + open < needed ? 'declined' : 'open';
}
