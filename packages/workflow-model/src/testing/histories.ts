/**
 * Givens for tests of the workflow model and of its deciders: people, the `memo` workflow, event
 * builders and named histories. Every history is a plain list of events, so a test reads "given these
 * events".
 */
import type { ResponseTaskStatus, WorkflowConfig, WorkflowEvent } from '@docflow/contracts';
import { foldWorkflow, openTasks, type WorkflowState } from '../workflow';

const usr = (n: number) => `usr-00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
export const AUTHOR = usr(0xa0);
export const ALICE = usr(0xa1);
export const BOB = usr(0xb0);
export const CAROL = usr(0xc0);
export const DAVE = usr(0xd0);
export const ERIN = usr(0xe0);
export const DEPUTY = usr(0xde);
export const OUTSIDER = usr(0x0f);

const NAMES: Record<string, string> = {
  [AUTHOR]: 'author',
  [ALICE]: 'alice',
  [BOB]: 'bob',
  [CAROL]: 'carol',
  [DAVE]: 'dave',
  [ERIN]: 'erin',
};

export const DOC = 'd0c000000000000000000001';
export const T0 = '2026-03-01T09:00:00.000Z';
export const AT = '2026-03-02T10:00:00.000Z';

/** respId of a task in a given history. */
export const rid = (n: number) => n.toString(16).padStart(24, '0');
/**
 * Approval in two stages (alice by e-mail and bob, then carol), flowing into sign (dave);
 * execution (erin) flows into the archive.
 */
export const MEMO: WorkflowConfig = {
  approval: {
    stages: [{ participants: ['alice@example.com', BOB] }, { participants: [CAROL] }],
    next: 'sign',
  },
  sign: { stages: [{ participants: [DAVE] }] },
  execution: { stages: [{ participants: [ERIN] }], next: 'archive' },
};
export const ev = {
  registered: (workflow: WorkflowConfig = MEMO): WorkflowEvent => ({
    type: 'WorkflowRegistered',
    data: { docId: DOC, form: 'memo', author: AUTHOR, workflow, at: T0 },
  }),
  phaseStarted: (
    phase: 'approval' | 'sign' | 'execution',
    iteration: number,
    stages: string[][],
    at = T0,
  ): WorkflowEvent => ({ type: 'PhaseStarted', data: { phase, iteration, stages, at } }),
  stageStarted: (step: number, at = T0): WorkflowEvent => ({ type: 'StageStarted', data: { step, at } }),
  opened: (
    respId: string,
    phase: 'approval' | 'sign' | 'execution',
    step: number,
    iteration: number,
    assignee: string,
    at = T0,
  ): WorkflowEvent => ({ type: 'TaskOpened', data: { respId, phase, step, iteration, assignee, at } }),
  answered: (
    respId: string,
    taskstatus: ResponseTaskStatus,
    answeredBy: string,
    at = T0,
    content = 'ok',
  ): WorkflowEvent => ({ type: 'TaskAnswered', data: { respId, taskstatus, content, answeredBy, at } }),
  cancelled: (
    respIds: string[],
    reason: 'declined' | 'cancelled' | 'restarted' | 'blocked' | 'deleted',
    at = T0,
  ): WorkflowEvent => ({ type: 'TasksCancelled', data: { respIds, reason, at } }),
  completed: (phase: 'approval' | 'sign' | 'execution', iteration: number, at = T0): WorkflowEvent => ({
    type: 'PhaseCompleted',
    data: { phase, iteration, at },
  }),
  declined: (
    phase: 'approval' | 'sign' | 'execution',
    iteration: number,
    respId: string,
    at = T0,
  ): WorkflowEvent => ({ type: 'PhaseDeclined', data: { phase, iteration, respId, at } }),
  suspended: (at = T0): WorkflowEvent => ({ type: 'WorkflowSuspended', data: { at } }),
  workflowCancelled: (at = T0): WorkflowEvent => ({ type: 'WorkflowCancelled', data: { at } }),
  toArchive: (iteration: number, at = T0): WorkflowEvent => ({
    type: 'MovedToArchive',
    data: { iteration, at },
  }),
  toRepository: (iteration: number, at = T0): WorkflowEvent => ({
    type: 'MovedToRepository',
    data: { iteration, at },
  }),
  blocked: (at = T0): WorkflowEvent => ({ type: 'DocumentBlocked', data: { at } }),
  deleted: (at = T0): WorkflowEvent => ({ type: 'DocumentDeleted', data: { at } }),
};

/** Named histories: the states a command can meet. respIds 1–2 approval stage 1, 3 stage 2, 4 sign, 5 execution. */
export const REGISTRATION = [ev.registered()];
export const APPROVAL_STAGE_1 = [
  ...REGISTRATION,
  ev.phaseStarted('approval', 1, [[ALICE, BOB], [CAROL]]),
  ev.stageStarted(1),
  ev.opened(rid(1), 'approval', 1, 1, ALICE),
  ev.opened(rid(2), 'approval', 1, 1, BOB),
];
export const APPROVAL_STAGE_2 = [
  ...APPROVAL_STAGE_1,
  ev.answered(rid(1), 2, ALICE),
  ev.answered(rid(2), 3, BOB),
  ev.stageStarted(2),
  ev.opened(rid(3), 'approval', 2, 1, CAROL),
];
export const SIGN = [
  ...APPROVAL_STAGE_2,
  ev.answered(rid(3), 2, CAROL),
  ev.completed('approval', 1),
  ev.phaseStarted('sign', 1, [[DAVE]]),
  ev.stageStarted(1),
  ev.opened(rid(4), 'sign', 1, 1, DAVE),
];
export const SIGN_COMPLETED = [...SIGN, ev.answered(rid(4), 8, DAVE), ev.completed('sign', 1)];
export const EXECUTION = [
  ...REGISTRATION,
  ev.phaseStarted('execution', 1, [[ERIN]]),
  ev.stageStarted(1),
  ev.opened(rid(5), 'execution', 1, 1, ERIN),
];
export const SUSPENDED = [...APPROVAL_STAGE_1, ev.suspended()];
export const DECLINED = [
  ...APPROVAL_STAGE_1,
  ev.answered(rid(1), 4, ALICE),
  ev.cancelled([rid(2)], 'declined'),
  ev.declined('approval', 1, rid(1)),
];
export const CANCELLED = [
  ...APPROVAL_STAGE_1,
  ev.cancelled([rid(1), rid(2)], 'cancelled'),
  ev.workflowCancelled(),
];
export const ARCHIVE = [
  ...EXECUTION,
  ev.answered(rid(5), 5, ERIN),
  ev.completed('execution', 1),
  ev.toArchive(1),
];
export const REPOSITORY = [...ARCHIVE, ev.toRepository(1)];
export const BLOCKED = [...APPROVAL_STAGE_1, ev.cancelled([rid(1), rid(2)], 'blocked'), ev.blocked()];
export const DELETED = [...BLOCKED, ev.deleted()];

export const given = (...histories: WorkflowEvent[][]): WorkflowState => foldWorkflow(histories.flat());

/**
 * The document as a reader sees it: `phase status step/iteration, open: <assignees>`.
 * e.g. `approval inProgress 1/1, open: alice bob`.
 */
export function summary(state: WorkflowState): string {
  const open = openTasks(state).map((t) => NAMES[t.assignee] ?? t.assignee);
  return `${state.phase} ${state.status} ${state.step}/${state.iteration}, open: ${open.join(' ') || 'none'}`;
}
