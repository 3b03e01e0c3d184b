/**
 * What a stage's deadline does when the clock reaches it (issue 36), one pure decision on the
 * workflow's state: the reminder (TasksDueSoon) at `remindAt`, and at `dueAt` TasksOverdue and the
 * escalation the form chose, recorded as TasksEscalated with whom it went to and why, followed by its
 * effect (tasks cancelled and opened, or answered). Each fires once: the state records that it did, so
 * deciding again on the appended state — a second scheduler, a restart — adds nothing.
 */
import type { Escalation, WorkflowEvent } from '@docflow/contracts';
import {
  foldWorkflow,
  openTasks,
  type StageTimer,
  type Task,
  type WorkflowState,
} from '@docflow/workflow-model';
import { cancelOpen, type DecisionInputs, withConsequences } from './businessLogic';

/** The stage's timer while it can still fire, with the open tasks it concerns. */
function armed(state: WorkflowState): { timer: StageTimer; open: Task[] } | undefined {
  const timer = state.timer;
  if (!timer || timer.overdue || timer.step !== state.step || state.status !== 'inProgress') return undefined;
  const open = openTasks(state);
  return open.length ? { timer, open } : undefined;
}

/** When the scheduler must next decide on this workflow (ms since the epoch), or undefined: never. */
export function nextTimerAt(state: WorkflowState): number | undefined {
  const live = armed(state);
  if (!live) return undefined;
  const { remindAt, reminded, dueAt } = live.timer;
  return Date.parse(remindAt && !reminded ? remindAt : dueAt);
}

/** The events the clock brings about at `inputs.at`; none when nothing is due. */
export function decideTimers(state: WorkflowState, inputs: DecisionInputs): WorkflowEvent[] {
  const live = armed(state);
  if (!live) return [];
  const { timer, open } = live;
  const now = Date.parse(inputs.at);
  const facts = { step: timer.step, iteration: state.iteration, respIds: open.map((t) => t.respId) };
  if (now >= Date.parse(timer.dueAt)) {
    const overdue: WorkflowEvent = {
      type: 'TasksOverdue',
      data: { ...facts, dueAt: timer.dueAt, at: inputs.at },
    };
    const escalation = state.workflow[open[0]!.phase]?.stages[timer.step - 1]?.deadline?.escalation;
    return [overdue, ...(escalation ? escalate(foldWorkflow([overdue], state), escalation, inputs) : [])];
  }
  if (timer.remindAt && !timer.reminded && now >= Date.parse(timer.remindAt))
    return [{ type: 'TasksDueSoon', data: { ...facts, dueAt: timer.dueAt, at: inputs.at } }];
  return [];
}

const REASONS: Record<Escalation['action'], string> = {
  notify: 'the escalation contacts are told',
  reassign: 'the tasks go to the escalation contacts',
  addParticipants: 'the escalation contacts take part in the stage',
  autoAnswer: 'the form answers the tasks',
};

function escalate(state: WorkflowState, escalation: Escalation, inputs: DecisionInputs): WorkflowEvent[] {
  const timer = state.timer!;
  const open = openTasks(state);
  const { phase, iteration } = open[0]!;
  const to = escalation.action === 'autoAnswer' ? [] : timer.escalateTo;
  const escalated: WorkflowEvent = {
    type: 'TasksEscalated',
    data: {
      step: timer.step,
      iteration,
      respIds: open.map((t) => t.respId),
      action: escalation.action,
      to,
      reason: `no answer by the deadline ${timer.dueAt}: ${REASONS[escalation.action]}`,
      at: inputs.at,
    },
  };
  const holders = new Set(open.map((t) => t.assignee));
  const openFor = (assignees: readonly string[]) =>
    assignees.map(
      (assignee): WorkflowEvent => ({
        type: 'TaskOpened',
        data: { respId: inputs.newId(), phase, step: timer.step, iteration, assignee, at: inputs.at },
      }),
    );
  switch (escalation.action) {
    case 'notify':
      return [escalated];
    case 'reassign':
      return [escalated, ...cancelOpen(state, 'escalated', inputs.at), ...openFor(to)];
    case 'addParticipants':
      return [escalated, ...openFor(to.filter((id) => !holders.has(id)))];
    case 'autoAnswer':
      return [escalated, ...answerAll(foldWorkflow([escalated], state), escalation, inputs)];
  }
}

/** Each open task answered in turn, until one answer ends the stage (a decline ends the phase). */
function answerAll(state: WorkflowState, escalation: Escalation, inputs: DecisionInputs): WorkflowEvent[] {
  const events: WorkflowEvent[] = [];
  let current = state;
  for (const task of openTasks(state)) {
    if (current.tasks[task.respId]?.state !== 'open') break;
    const answered = withConsequences(
      current,
      task,
      {
        type: 'TaskAnswered',
        data: {
          respId: task.respId,
          taskstatus: escalation.answer!,
          content: `answered automatically: no answer by ${state.timer!.dueAt}`,
          answeredBy: task.assignee,
          automatic: true,
          at: inputs.at,
        },
      },
      inputs,
    );
    events.push(...answered);
    current = foldWorkflow(answered, current);
  }
  return events;
}
