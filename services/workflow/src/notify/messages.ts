/**
 * What the e-mail notifications say and to whom, from the workflow's facts: pure. Recipients are
 * `usr-` ids only; the addresses are looked up at send time (notifier.ts) and never stored. The
 * document is named by its title and linked to its console page, both given at send time too.
 */
import type { WorkflowEvent } from '@docflow/contracts';
import type { WorkflowState } from '@docflow/workflow-model';

export interface Notification {
  /** `usr-` ids. */
  to: string[];
  subject: string;
  text: string;
}

/** The document as the e-mail names it, looked up when it is sent. */
export interface NotifiedDocument {
  /** Its title now; undefined when the document service knows it no more (deleted). */
  title?: string;
  /** Where people reach docflow (DOCFLOW_PUBLIC_URL, no trailing slash); undefined: no link. */
  publicUrl?: string;
}

/** The facts that are e-mailed. */
export const NOTIFIED_EVENTS: ReadonlySet<string> = new Set([
  'TaskOpened',
  'TasksDueSoon',
  'TasksOverdue',
  'TasksEscalated',
]);

const TITLE_MAX = 100;

const assigneesOf = (state: WorkflowState, respIds: string[]) => [
  ...new Set(respIds.flatMap((id) => state.tasks[id]?.assignee ?? [])),
];

/** The title on one line (it goes in the Subject header) and at most TITLE_MAX characters. */
function oneLine(title: string): string {
  const line = title.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ').trim();
  return line.length > TITLE_MAX ? `${line.slice(0, TITLE_MAX - 1)}…` : line;
}

/** The console's page of document `docId` under `publicUrl`. */
const documentLink = (publicUrl: string, docId: string) =>
  `${publicUrl}/console#/doc/${encodeURIComponent(docId)}`;

/** Whom one fact of `state`'s workflow concerns (`usr-` ids), or undefined when the fact is not e-mailed. */
export function recipientsOf(event: WorkflowEvent, state: WorkflowState): string[] | undefined {
  switch (event.type) {
    case 'TaskOpened':
      return [event.data.assignee];
    case 'TasksDueSoon':
    case 'TasksOverdue':
      return assigneesOf(state, event.data.respIds);
    case 'TasksEscalated':
      return event.data.to;
    default:
      return undefined;
  }
}

/** The notification of one fact of `state`'s workflow, or undefined when the fact is not e-mailed. */
export function notificationOf(
  event: WorkflowEvent,
  state: WorkflowState,
  document: NotifiedDocument,
): Notification | undefined {
  const to = recipientsOf(event, state);
  if (!to) return undefined;
  const title = document.title === undefined ? '' : oneLine(document.title);
  const name = title ? `\u201c${title}\u201d` : `document ${state.docId}`;
  const which = `${name} (${title ? `document ${state.docId}, ` : ''}form ${state.form})`;
  const link = document.publicUrl ? `\n\nOpen it: ${documentLink(document.publicUrl, state.docId)}\n` : '\n';
  switch (event.type) {
    case 'TaskOpened':
      return {
        to,
        subject: `docflow: a new task for you on ${name}`,
        text: `A task on ${which}, stage ${event.data.step}, waits for your answer.${link}`,
      };
    case 'TasksDueSoon':
      return {
        to,
        subject: `docflow: your task on ${name} is due soon`,
        text: `Your task on ${which}, stage ${event.data.step}, is due at ${event.data.dueAt}.${link}`,
      };
    case 'TasksOverdue':
      return {
        to,
        subject: `docflow: your task on ${name} is overdue`,
        text: `Your task on ${which}, stage ${event.data.step}, was due at ${event.data.dueAt}.${link}`,
      };
    case 'TasksEscalated':
      return {
        to,
        subject: `docflow: an overdue task on ${name} was escalated to you`,
        text: `Overdue tasks on ${which}, stage ${event.data.step}, were escalated to you (${event.data.action}): ${event.data.reason}${link}`,
      };
    default:
      return undefined;
  }
}
