/**
 * What the e-mail notifications say and to whom, from the workflow's facts: pure. Recipients are
 * `usr-` ids only; the addresses are looked up at send time (notifier.ts) and never stored.
 */
import type { WorkflowEvent } from '@docflow/contracts';
import type { WorkflowState } from '@docflow/workflow-model';

export interface Notification {
  /** `usr-` ids. */
  to: string[];
  subject: string;
  text: string;
}

/** The facts that are e-mailed. */
export const NOTIFIED_EVENTS: ReadonlySet<string> = new Set([
  'TaskOpened',
  'TasksDueSoon',
  'TasksOverdue',
  'TasksEscalated',
]);

const assigneesOf = (state: WorkflowState, respIds: string[]) => [
  ...new Set(respIds.flatMap((id) => state.tasks[id]?.assignee ?? [])),
];

/** The notification of one fact of `state`'s workflow, or undefined when the fact is not e-mailed. */
export function notificationOf(event: WorkflowEvent, state: WorkflowState): Notification | undefined {
  const doc = `document ${state.docId} (form ${state.form})`;
  switch (event.type) {
    case 'TaskOpened':
      return {
        to: [event.data.assignee],
        subject: `docflow: a new task for you on ${doc}`,
        text: `A task on ${doc}, stage ${event.data.step}, waits for your answer.`,
      };
    case 'TasksDueSoon':
      return {
        to: assigneesOf(state, event.data.respIds),
        subject: `docflow: your task on ${doc} is due soon`,
        text: `Your task on ${doc}, stage ${event.data.step}, is due at ${event.data.dueAt}.`,
      };
    case 'TasksOverdue':
      return {
        to: assigneesOf(state, event.data.respIds),
        subject: `docflow: your task on ${doc} is overdue`,
        text: `Your task on ${doc}, stage ${event.data.step}, was due at ${event.data.dueAt}.`,
      };
    case 'TasksEscalated':
      return {
        to: event.data.to,
        subject: `docflow: an overdue task on ${doc} was escalated to you`,
        text: `Overdue tasks on ${doc}, stage ${event.data.step}, were escalated to you (${event.data.action}): ${event.data.reason}`,
      };
    default:
      return undefined;
  }
}
