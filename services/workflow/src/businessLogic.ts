/**
 * Workflow commands, one pure decision each: `(command, state) → events`, or a Rejection:
 * notFound an unknown or deleted document or task, invalid a taskstatus that is no valid value here,
 * forbidden not allowed, notApplicable a valid request that cannot change anything from the current state.
 */
import {
  ANSWER_TASK_STATUSES,
  ANSWERS_OF_PHASE,
  actionRefused,
  CREATE_TASK_STATUSES,
  type DeputiesOf,
  isAbsent,
  isEnabledDeputy,
  MANAGE_TASK_STATUSES,
  MANAGEMENT_TASK_STATUS,
  type ManagementTaskStatus,
  namedCodes,
  RESPONSE_TASK_STATUS,
  Rejection,
  type ResponseTaskStatus,
  rejections,
  statusWords,
  taskStatusLabel,
  USR_ID_PATTERN,
  WORK_PHASES,
  type WorkflowActions,
  type WorkflowCommandRequest,
  type WorkflowConfig,
  type WorkflowEvent,
  type WorkPhase,
  wouldChange,
} from '@docflow/contracts';
import { foldWorkflow, isDeleted, openTasks, type Task, type WorkflowState } from '@docflow/workflow-model';
import { canManage, type ManagePrincipal } from './access';
import { stageDue } from './deadlines';
import { stageOutcome } from './quorum';
import { decideReassign, reassignableTask } from './reassign';

const DAY_MS = 86_400_000;
const M = MANAGEMENT_TASK_STATUS;
const R = RESPONSE_TASK_STATUS;

/** Form participant (e-mail or `usr-` id) → `usr-` id. A `usr-` id left out stands for itself. */
export type ParticipantIds = Readonly<Record<string, string>>;

/** What a deciding command brings from outside, so that decisions stay deterministic. */
export interface DecisionInputs {
  /** ISO 8601 UTC time of the command. */
  at: string;
  /** A fresh respId (24 hex) per call. */
  newId: () => string;
  participants: ParticipantIds;
  /**
   * The deputies of the form's participants, by `usr-` id: one whose absence holds at `at` gets the
   * task a participant would (docs/decisions.md, "Absences"). Absent: nobody is away.
   */
  standIns?: DeputiesOf;
}

/**
 * Participants and escalation contacts of a form's workflow that the caller resolves: the e-mails to
 * `usr-` ids, and every one of them (ids too) for their deputies, whose absence may take a participant's
 * tasks.
 */
export function participantsToResolve(workflow: WorkflowConfig): string[] {
  return [
    ...new Set(
      WORK_PHASES.flatMap(
        (p) =>
          workflow[p]?.stages.flatMap((s) => [
            ...s.participants,
            ...(s.deadline?.escalation?.contacts ?? []),
          ]) ?? [],
      ),
    ),
  ];
}

// ---- registration ----------------------------------------------------------------------------------

export interface RegisterWorkflow {
  docId: string;
  form: string;
  author: string;
  workflow: WorkflowConfig;
  at: string;
}

/** From the document service's DocumentCreated; a redelivery of a registered document adds nothing. */
export function decideRegister(cmd: RegisterWorkflow, state: WorkflowState): WorkflowEvent[] {
  if (state.registered) return [];
  const { docId, form, author, workflow, at } = cmd;
  return [{ type: 'WorkflowRegistered', data: { docId, form, author, workflow, at } }];
}

// ---- management (POST docResponse) -----------------------------------------------------------------

export interface ManageWorkflow extends DecisionInputs {
  taskstatus: number;
  principal: ManagePrincipal;
}

export function decideManage(cmd: ManageWorkflow, state: WorkflowState): WorkflowEvent[] {
  return namingAction(cmd.taskstatus, () => {
    requireLive(state);
    const move = managementMove(cmd.taskstatus);
    if (!canManage(cmd.principal, state, cmd.taskstatus))
      throw rejections.forbidden('the caller may not do this on this document');
    return move(state, cmd);
  });
}

/**
 * A refusal of `decide` told with the action it refused (`approval could not start: …`), so that no
 * caller reads a bare code. The create's actions are not told here: the document service names them
 * in `X-Error`, together with a workflow service that did not answer.
 */
function namingAction(taskstatus: number, decide: () => WorkflowEvent[]): WorkflowEvent[] {
  try {
    return decide();
  } catch (error) {
    if (!(error instanceof Rejection)) throw error;
    throw new Rejection(error.kind, actionRefused(taskstatus, error.message), error.errors);
  }
}

/** An action of the create request: the same move, allowed to whoever may create the document. */
export interface CreateAction extends DecisionInputs {
  taskstatus: number;
}

export function decideCreateAction(cmd: CreateAction, state: WorkflowState): WorkflowEvent[] {
  requireLive(state);
  if (!(CREATE_TASK_STATUSES as readonly number[]).includes(cmd.taskstatus))
    throw rejections.invalid(
      `taskstatus ${taskStatusLabel(cmd.taskstatus)} cannot be asked with a create; it takes ${namedCodes(CREATE_TASK_STATUSES)}`,
    );
  return managementMove(cmd.taskstatus)(state, cmd);
}

type Move = (state: WorkflowState, inputs: DecisionInputs) => WorkflowEvent[];

const MOVES: Record<ManagementTaskStatus, Move> = {
  [M.startApproval]: (s, c) => startIdle(s, 'approval', c),
  [M.suspend]: suspend,
  [M.resume]: resume,
  [M.cancel]: cancel,
  [M.restart]: restart,
  [M.startSign]: (s, c) => startIdle(s, 'sign', c),
  [M.startExecution]: (s, c) => startIdle(s, 'execution', c),
  [M.moveToArchive]: (s, c) => moveTo(s, 'archive', c.at),
  [M.moveToRepository]: (s, c) => moveTo(s, 'repository', c.at),
  [M.block]: block,
  [M.delete]: remove,
};

function managementMove(taskstatus: number): Move {
  const move = MOVES[taskstatus as ManagementTaskStatus];
  if (!move)
    throw rejections.invalid(
      `taskstatus ${taskStatusLabel(taskstatus)} is no workflow move; the moves are ${namedCodes(MANAGE_TASK_STATUSES)}`,
    );
  return (state, inputs) => {
    if (state.status === 'blocked' && taskstatus !== M.delete)
      throw rejections.notApplicable('the document is blocked: only delete (111) is accepted');
    return move(state, inputs);
  };
}

const isRunning = (s: WorkflowState) => s.status === 'inProgress' || s.status === 'suspended';
const isWorkPhase = (phase: string): phase is WorkPhase => (WORK_PHASES as readonly string[]).includes(phase);

/** 100, 105, 106: only when no phase is running and the document is not filed yet. */
function startIdle(state: WorkflowState, phase: WorkPhase, c: DecisionInputs): WorkflowEvent[] {
  if (!isWorkPhase(state.phase) && state.phase !== 'registration')
    throw rejections.notApplicable(`the document is in the ${state.phase}; no phase starts from there`);
  if (isRunning(state))
    throw rejections.notApplicable(
      `the ${state.phase} phase is ${statusWords(state.status)}: cancel (103) or restart (104) it first`,
    );
  return startPhase(state, phase, c);
}

function startPhase(state: WorkflowState, phase: WorkPhase, c: DecisionInputs): WorkflowEvent[] {
  const config = state.workflow[phase];
  if (!config) throw rejections.notApplicable(`the form ${state.form} configures no ${phase} phase`);
  const stages = config.stages.map((stage) => [
    ...new Set(stage.participants.map((p) => resolveParticipant(p, phase, c.participants))),
  ]);
  const iteration = (state.starts[phase] ?? 0) + 1;
  const { dueDays } = state.workflow;
  const dueDate =
    dueDays === undefined ? undefined : new Date(Date.parse(c.at) + dueDays * DAY_MS).toISOString();
  return [
    { type: 'PhaseStarted', data: { phase, iteration, stages, ...(dueDate ? { dueDate } : {}), at: c.at } },
    ...startStage(state.workflow, phase, iteration, 1, stages[0] ?? [], c),
  ];
}

function resolveParticipant(participant: string, phase: WorkPhase, ids: ParticipantIds): string {
  const id = ids[participant] ?? (USR_ID_PATTERN.test(participant) ? participant : undefined);
  if (!id)
    throw rejections.notApplicable(`participant ${participant} of the ${phase} phase is no known account`);
  return id;
}

function startStage(
  workflow: WorkflowConfig,
  phase: WorkPhase,
  iteration: number,
  step: number,
  assignees: readonly string[],
  c: DecisionInputs,
): WorkflowEvent[] {
  const deadline = workflow[phase]?.stages[step - 1]?.deadline;
  const contacts = deadline?.escalation?.contacts ?? [];
  const escalateTo = [...new Set(contacts.map((p) => resolveParticipant(p, phase, c.participants)))];
  const due = stageDue(deadline, c.at);
  return [
    {
      type: 'StageStarted',
      data: { step, ...due, ...(due.dueAt && escalateTo.length ? { escalateTo } : {}), at: c.at },
    },
    ...assignees.map((participant): WorkflowEvent => {
      const deputy = c.standIns?.[participant];
      const away =
        deputy && isAbsent(deputy, c.at) ? { assignee: deputy.id, onBehalfOf: participant } : undefined;
      return {
        type: 'TaskOpened',
        data: { respId: c.newId(), phase, step, iteration, assignee: participant, ...away, at: c.at },
      };
    }),
  ];
}

type CancelReason = Extract<WorkflowEvent, { type: 'TasksCancelled' }>['data']['reason'];

export function cancelOpen(
  state: WorkflowState,
  reason: CancelReason,
  at: string,
  except?: string,
): WorkflowEvent[] {
  const respIds = openTasks(state)
    .map((t) => t.respId)
    .filter((id) => id !== except);
  return respIds.length ? [{ type: 'TasksCancelled', data: { respIds, reason, at } }] : [];
}

function suspend(state: WorkflowState, c: DecisionInputs): WorkflowEvent[] {
  if (state.status !== 'inProgress')
    throw rejections.notApplicable(
      `only a workflow in progress can be suspended; it is ${statusWords(state.status)}`,
    );
  return [{ type: 'WorkflowSuspended', data: { at: c.at } }];
}

function resume(state: WorkflowState, c: DecisionInputs): WorkflowEvent[] {
  if (state.status !== 'suspended')
    throw rejections.notApplicable(
      `only a suspended workflow can be resumed; it is ${statusWords(state.status)}`,
    );
  return [{ type: 'WorkflowResumed', data: { at: c.at } }];
}

function cancel(state: WorkflowState, c: DecisionInputs): WorkflowEvent[] {
  if (!isRunning(state))
    throw rejections.notApplicable(`no workflow is running; it is ${statusWords(state.status)}`);
  return [...cancelOpen(state, 'cancelled', c.at), { type: 'WorkflowCancelled', data: { at: c.at } }];
}

/** 104: the current phase again with iteration + 1; in registration, the first phase the form has. */
function restart(state: WorkflowState, c: DecisionInputs): WorkflowEvent[] {
  if (state.phase === 'registration') {
    const first = WORK_PHASES.find((p) => state.workflow[p]);
    if (!first) throw rejections.notApplicable(`the form ${state.form} configures no workflow phase`);
    return startPhase(state, first, c);
  }
  if (!isWorkPhase(state.phase))
    throw rejections.notApplicable(`the document is in the ${state.phase}; there is no phase to repeat`);
  return [...cancelOpen(state, 'restarted', c.at), ...startPhase(state, state.phase, c)];
}

/** 107, 108: a finished or never started workflow only; archive may move on to repository, not back. */
function moveTo(state: WorkflowState, place: 'archive' | 'repository', at: string): WorkflowEvent[] {
  if (state.phase === place) throw rejections.notApplicable(`the document is in the ${place} already`);
  if (state.phase === 'repository') throw rejections.notApplicable('the document is in the repository');
  if (isRunning(state))
    throw rejections.notApplicable(
      `the ${state.phase} phase is ${statusWords(state.status)}: cancel (103) it first`,
    );
  const iteration = (state.starts[place] ?? 0) + 1;
  return [
    place === 'archive'
      ? { type: 'MovedToArchive', data: { iteration, at } }
      : { type: 'MovedToRepository', data: { iteration, at } },
  ];
}

/** 110: open tasks are cancelled, since a blocked document accepts no answer again. */
function block(state: WorkflowState, c: DecisionInputs): WorkflowEvent[] {
  return [...cancelOpen(state, 'blocked', c.at), { type: 'DocumentBlocked', data: { at: c.at } }];
}

/** 111: from any state, block (unless blocked) then delete. */
function remove(state: WorkflowState, c: DecisionInputs): WorkflowEvent[] {
  const blocked: WorkflowEvent[] =
    state.status === 'blocked' ? [] : [{ type: 'DocumentBlocked', data: { at: c.at } }];
  return [...cancelOpen(state, 'deleted', c.at), ...blocked, { type: 'DocumentDeleted', data: { at: c.at } }];
}

// ---- responses (PUT docResponse/{respId}) ----------------------------------------------------------

export interface AnswerTask extends DecisionInputs {
  respId: string;
  taskstatus: number;
  content: string;
  /** The effective principal answering. */
  caller: string;
  /** The deputies of (at least) the task's assignee, as the identity service has them now. */
  deputiesOf: DeputiesOf;
}

/** The answers each phase's tasks take. */
export const ANSWERS_BY_PHASE: Record<WorkPhase, readonly ResponseTaskStatus[]> = ANSWERS_OF_PHASE;

const RESPONSE_STATUSES: readonly number[] = Object.values(R);

export function decideAnswer(cmd: AnswerTask, state: WorkflowState): WorkflowEvent[] {
  return namingAction(cmd.taskstatus, () => answer(cmd, state));
}

function answer(cmd: AnswerTask, state: WorkflowState): WorkflowEvent[] {
  requireLive(state);
  if (!RESPONSE_STATUSES.includes(cmd.taskstatus))
    throw rejections.invalid(
      `taskstatus ${taskStatusLabel(cmd.taskstatus)} is no answer; the answers are ${namedCodes(RESPONSE_STATUSES)}`,
    );
  const task = state.tasks[cmd.respId];
  if (!task) throw rejections.notFound(`no docResponse ${cmd.respId} on this document`);
  // A task opened for an absent participant is answered for them by the deputy it went to.
  const onBehalfOf = answeringFor(task, cmd.caller, cmd.deputiesOf) ?? task.onBehalfOf;
  const taskstatus = cmd.taskstatus as ResponseTaskStatus;
  // invalid, not notApplicable: the task's phase never changes, so this answer can never succeed on this
  // task; notApplicable is kept for a valid answer that the current state refuses (a retry later might not).
  if (!ANSWERS_BY_PHASE[task.phase].includes(taskstatus))
    throw rejections.invalid(
      `taskstatus ${taskStatusLabel(taskstatus)} does not answer a task of the ${task.phase} phase (it takes ${namedCodes(ANSWERS_BY_PHASE[task.phase])})`,
    );
  if (state.status === 'blocked') throw rejections.notApplicable('the document is blocked');
  if (task.state === 'answered')
    throw rejections.notApplicable(`docResponse ${task.respId} is answered already`);
  if (task.state === 'cancelled') throw rejections.notApplicable(`docResponse ${task.respId} was cancelled`);
  if (state.status === 'suspended') throw rejections.notApplicable('the workflow is suspended');

  const answered: TaskAnswered = {
    type: 'TaskAnswered',
    data: {
      respId: task.respId,
      taskstatus,
      content: cmd.content,
      answeredBy: cmd.caller,
      ...(onBehalfOf ? { onBehalfOf } : {}),
      at: cmd.at,
    },
  };
  return withConsequences(state, task, answered, cmd);
}

type TaskAnswered = Extract<WorkflowEvent, { type: 'TaskAnswered' }>;

/**
 * An answer to an open `task` and what it brings about on `state`: a decline ends the phase, the
 * stage's last answer starts the next stage or completes the phase.
 */
export function withConsequences(
  state: WorkflowState,
  task: Task,
  answered: TaskAnswered,
  c: DecisionInputs,
): WorkflowEvent[] {
  const { phase, iteration } = task;
  // Every open task belongs to the current stage: whatever leaves a stage closes its tasks.
  const outcome = stageOutcome(state, task, answered.data.taskstatus);
  if (outcome === 'declined')
    return [
      answered,
      ...cancelOpen(state, 'declined', c.at, task.respId),
      { type: 'PhaseDeclined', data: { phase, iteration, respId: task.respId, at: c.at } },
    ];
  if (outcome === 'open') return [answered];
  const closed = cancelOpen(state, 'quorum', c.at, task.respId);
  return [answered, ...closed, ...afterStage(state, phase, iteration, c)];
}

/** The stage is done: the next one starts, or after the last the phase completes. */
function afterStage(
  state: WorkflowState,
  phase: WorkPhase,
  iteration: number,
  cmd: DecisionInputs,
): WorkflowEvent[] {
  const nextStage = state.stages[state.step];
  if (nextStage) return startStage(state.workflow, phase, iteration, state.step + 1, nextStage, cmd);
  return completePhase(state, phase, cmd);
}

/** The assignee answering returns undefined; their enabled deputy returns the assignee; else forbidden. */
function answeringFor(task: Task, caller: string, deputiesOf: DeputiesOf): string | undefined {
  if (task.assignee === caller) return undefined;
  if (isEnabledDeputy(deputiesOf, task.assignee, caller)) return task.assignee;
  throw rejections.forbidden(`docResponse ${task.respId} is not the caller's, nor one they stand in for`);
}

/** The phase completes; the form's `next` starts by itself in the same decision. */
function completePhase(state: WorkflowState, phase: WorkPhase, c: DecisionInputs): WorkflowEvent[] {
  const completed: WorkflowEvent = {
    type: 'PhaseCompleted',
    data: { phase, iteration: state.iteration, at: c.at },
  };
  const next = state.workflow[phase]?.next;
  if (!next) return [completed];
  const done = { ...state, status: 'completed' as const };
  return [completed, ...(isWorkPhase(next) ? startPhase(done, next, c) : moveTo(done, next, c.at))];
}

function requireLive(state: WorkflowState): void {
  // A deleted document is not found, like on GET: notApplicable would tell that it existed.
  if (!state.registered || isDeleted(state)) throw rejections.notFound('no such document');
}

// ---- one command, and what a caller may do now -----------------------------------------------------

export type WorkflowCommand = WorkflowCommandRequest['command'];

/** Who sends a command and what it brings: the inputs, the caller, and the deputies of the assignees. */
export interface CommandContext extends DecisionInputs {
  principal: ManagePrincipal;
  deputiesOf: DeputiesOf;
}

/**
 * The events one command appends: the registration first when the workflow is new, then the command's
 * own; none when the command changes nothing.
 */
export function decideCommand(
  registration: RegisterWorkflow,
  command: WorkflowCommand,
  ctx: CommandContext,
  state: WorkflowState,
): WorkflowEvent[] {
  const registered = decideRegister(registration, state);
  const current = foldWorkflow(registered, state);
  const decided =
    command.kind === 'create'
      ? decideCreateAction({ ...ctx, taskstatus: command.taskstatus }, current)
      : command.kind === 'manage'
        ? decideManage({ ...ctx, taskstatus: command.taskstatus }, current)
        : command.kind === 'reassign'
          ? decideReassign(
              {
                ...ctx,
                respId: command.respId,
                toRef: command.to,
                to: ctx.participants[command.to],
                reason: command.reason,
              },
              current,
            )
          : decideAnswer({ ...ctx, ...command, caller: ctx.principal.subject }, current);
  return decided.length ? [...registered, ...decided] : [];
}

/**
 * What the caller may do now (`embed=actions`): each management move and each answer to the caller's
 * open task (or one they stand in for) decided on the state by decideCommand, the code that runs the
 * command itself, and kept when it would change something; and the open tasks the caller may hand over,
 * by the rule the reassign command checks first (reassignableTask).
 */
export function allowedActions(
  registration: RegisterWorkflow,
  ctx: CommandContext,
  state: WorkflowState,
): WorkflowActions {
  const allowed = (command: WorkflowCommand) =>
    wouldChange(() => decideCommand(registration, command, ctx, state));
  const caller = ctx.principal.subject;
  const current = foldWorkflow(decideRegister(registration, state), state);
  const open = openTasks(current);
  const task =
    open.find((t) => t.assignee === caller) ??
    open.find((t) => isEnabledDeputy(ctx.deputiesOf, t.assignee, caller));
  return {
    manage: MANAGE_TASK_STATUSES.filter((taskstatus) => allowed({ kind: 'manage', taskstatus })),
    answer: task
      ? {
          respId: task.respId,
          taskstatus: ANSWER_TASK_STATUSES.filter((taskstatus) =>
            allowed({ kind: 'answer', respId: task.respId, taskstatus, content: '' }),
          ),
        }
      : null,
    reassign: open
      .filter((t) => wouldChange(() => [reassignableTask(ctx.principal, current, t.respId)]))
      .map((t) => t.respId),
  };
}
