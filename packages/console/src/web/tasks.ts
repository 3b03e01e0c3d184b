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
  /** When it is due: its stage's deadline, else its phase's due date (the form's `dueDays`). */
  due?: string;
  /** When the stage's reminder went out while it was open. */
  remindedAt?: string;
  /** The deadline passed while it was open (the server's fact, not this browser's clock). */
  overdue?: boolean;
  /** What the stage's escalation did while it was open, in words (`reassigned to`, …), and to whom. */
  escalation?: { words: string; to: string[] };
}

/** The escalation kinds of a form's stage deadline, as the task table says them. */
const ESCALATION_WORDS: Record<string, string> = {
  notify: 'escalated to',
  reassign: 'reassigned to',
  addParticipants: 'escalated by adding',
  autoAnswer: 'escalated: answered automatically',
};

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
  /** Due dates by `phase:iteration` (PhaseStarted) and `phase:iteration:step` (StageStarted). */
  const dueBy = new Map<string, string>();
  let phaseNow = '';
  const each = (respIds: unknown, apply: (task: TaskLine) => void) => {
    for (const id of Array.isArray(respIds) ? respIds : []) {
      const task = tasks.get(String(id));
      if (task) apply(task);
    }
  };
  for (const entry of history) {
    const events = (entry.data as { events?: WorkflowEvent[] }).events;
    if (entry.type !== 'WorkflowChanged' || !Array.isArray(events)) continue;
    for (const { type, data } of events) {
      if (type === 'PhaseStarted') {
        const d = data as { phase: string; iteration: number; dueDate?: string };
        phaseNow = `${d.phase}:${d.iteration}`;
        if (d.dueDate) dueBy.set(phaseNow, d.dueDate);
      } else if (type === 'StageStarted') {
        // A stage starts within the phase started last.
        const d = data as { step: number; dueAt?: string };
        if (d.dueAt) dueBy.set(`${phaseNow}:${d.step}`, d.dueAt);
      } else if (type === 'TasksDueSoon') {
        each(data.respIds, (task) => Object.assign(task, { remindedAt: String(data.at) }));
      } else if (type === 'TasksOverdue') {
        each(data.respIds, (task) => Object.assign(task, { overdue: true }));
      } else if (type === 'TasksEscalated') {
        const words = ESCALATION_WORDS[String(data.action)] ?? `escalated (${String(data.action)})`;
        const to = Array.isArray(data.to) ? data.to.map(String) : [];
        each(data.respIds, (task) => Object.assign(task, { escalation: { words, to } }));
      } else if (type === 'TaskOpened') {
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
          due: dueBy.get(`${d.phase}:${d.iteration}:${d.step}`) ?? dueBy.get(`${d.phase}:${d.iteration}`),
        });
      } else if (type === 'TaskAnswered') {
        const d = data as {
          respId: string;
          taskstatus: number;
          content: string;
          answeredBy: string;
          automatic?: boolean;
          at: string;
        };
        const task = tasks.get(d.respId);
        const answer = ANSWER_NAMES[d.taskstatus] ?? `answered ${d.taskstatus}`;
        if (task)
          Object.assign(task, {
            outcome: d.automatic ? `${answer} automatically` : answer,
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
