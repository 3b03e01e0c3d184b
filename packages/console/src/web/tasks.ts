/** The tasks of a document's workflow, folded from its history (the API reads only the caller's own). */
import { RESPONSE_TASK_STATUS } from '@docflow/contracts/codes';
import type { HistoryEntry } from './model';

export interface TaskLine {
  respId: string;
  phase: string;
  step: number;
  iteration: number;
  assignee: string;
  opened: string;
  /** `open`, the answer (`approved`, `declined`, …) or `cancelled (reason)`. */
  outcome: string;
  comment: string;
  answeredBy?: string;
  /** The participant the assignee stood in for: away when the task opened. */
  onBehalfOf?: string;
  /** Whom the task was handed to (outcome `handed over: <reason>`). */
  handedTo?: string;
  closed?: string;
}

interface WorkflowEvent {
  type: string;
  data: Record<string, unknown>;
}

const ANSWER_NAMES: Record<number, string> = {
  [RESPONSE_TASK_STATUS.approve]: 'approved',
  [RESPONSE_TASK_STATUS.approveWithEdits]: 'approved with edits',
  [RESPONSE_TASK_STATUS.decline]: 'declined',
  [RESPONSE_TASK_STATUS.executionDone]: 'done',
  [RESPONSE_TASK_STATUS.sign]: 'signed',
};

/** Every task in the order it was opened, with how it ended. */
export function tasksOf(history: readonly HistoryEntry[]): TaskLine[] {
  const tasks = new Map<string, TaskLine>();
  for (const entry of history) {
    const events = (entry.data as { events?: WorkflowEvent[] }).events;
    if (entry.type !== 'WorkflowChanged' || !Array.isArray(events)) continue;
    for (const { type, data } of events) {
      if (type === 'TaskOpened') {
        const d = data as {
          respId: string;
          phase: string;
          step: number;
          iteration: number;
          assignee: string;
          onBehalfOf?: string;
          at: string;
        };
        tasks.set(d.respId, {
          ...(d.onBehalfOf ? { onBehalfOf: d.onBehalfOf } : {}),
          respId: d.respId,
          phase: d.phase,
          step: d.step,
          iteration: d.iteration,
          assignee: d.assignee,
          opened: d.at,
          outcome: 'open',
          comment: '',
        });
      } else if (type === 'TaskAnswered') {
        const d = data as {
          respId: string;
          taskstatus: number;
          content: string;
          answeredBy: string;
          at: string;
        };
        const task = tasks.get(d.respId);
        if (task)
          Object.assign(task, {
            outcome: ANSWER_NAMES[d.taskstatus] ?? `answered ${d.taskstatus}`,
            comment: d.content,
            answeredBy: d.answeredBy,
            closed: d.at,
          });
      } else if (type === 'TaskReassigned') {
        const d = data as { respId: string; to: string; reason: string; at: string };
        const task = tasks.get(d.respId);
        if (task) Object.assign(task, { outcome: `handed over: ${d.reason}`, handedTo: d.to, closed: d.at });
      } else if (type === 'TasksCancelled') {
        const d = data as { respIds: string[]; reason: string; at: string };
        for (const id of d.respIds) {
          const task = tasks.get(id);
          if (task?.outcome === 'open')
            Object.assign(task, { outcome: `cancelled (${d.reason})`, closed: d.at });
        }
      }
    }
  }
  return [...tasks.values()];
}
