/**
 * The workflow of one document as its facts tell it: state, tasks and `evolve`. The workflow service
 * decides on it; the document service folds the facts it records. Nothing here does I/O.
 */
import type {
  DocPhase,
  DocStatus,
  ResponseTaskStatus,
  WorkflowConfig,
  WorkflowEvent,
  WorkPhase,
} from '@docflow/contracts';

/** A DocResponse: one per participant per stage. */
export interface Task {
  respId: string;
  phase: WorkPhase;
  step: number;
  iteration: number;
  assignee: string;
  state: 'open' | 'answered' | 'cancelled';
  /** 0 while open (and when cancelled). */
  taskstatus: ResponseTaskStatus | 0;
  content: string;
  openedAt: string;
  /**
   * When it is due: the earlier of its phase's due date and its stage's deadline as they stood when it
   * opened; absent when neither was set (docs/decisions.md, "A task's due date").
   */
  dueAt?: string;
  /** When it was answered or cancelled. */
  closedAt?: string;
  answeredBy?: string;
  onBehalfOf?: string;
  /** Whom the task was handed to (it closed as cancelled then). */
  reassignedTo?: string;
}

/** The current stage's deadline (StageStarted) and how far the scheduler acted on it. */
export interface StageTimer {
  step: number;
  dueAt: string;
  remindAt?: string;
  escalateTo: string[];
  reminded: boolean;
  overdue: boolean;
}

export interface WorkflowState {
  registered: boolean;
  docId: string;
  form: string;
  author: string;
  /** The form's workflow configuration as it was when the document was created. */
  workflow: WorkflowConfig;
  phase: DocPhase;
  status: DocStatus;
  /** The stage the phase is at, or stopped at; 0 in registration, archive and repository. */
  step: number;
  iteration: number;
  /** How many times each phase has been started (or moved into): the next start's iteration - 1. */
  starts: Partial<Record<DocPhase, number>>;
  /** Participants (`usr-` ids) of each stage of the current phase. */
  stages: string[][];
  /** Due date of the current phase's tasks; '' when none. */
  dueDate: string;
  /** Every task ever opened, by respId, in the order they were opened. */
  tasks: Record<string, Task>;
  /** The deadline of the stage the phase is at; null when the form gives it none. */
  timer: StageTimer | null;
  lastModified: string;
}

export const initialWorkflow: WorkflowState = {
  registered: false,
  docId: '',
  form: '',
  author: '',
  workflow: {},
  phase: 'registration',
  status: 'draft',
  step: 0,
  iteration: 0,
  starts: {},
  stages: [],
  dueDate: '',
  tasks: {},
  timer: null,
  lastModified: '',
};

function updateTask(state: WorkflowState, respId: string, change: Partial<Task>): WorkflowState {
  const task = state.tasks[respId];
  return task ? { ...state, tasks: { ...state.tasks, [respId]: { ...task, ...change } } } : state;
}

function moveTo(state: WorkflowState, phase: 'archive' | 'repository', iteration: number): WorkflowState {
  return {
    ...state,
    phase,
    status: 'completed',
    step: 0,
    iteration,
    starts: { ...state.starts, [phase]: iteration },
    stages: [],
    dueDate: '',
  };
}

function apply(state: WorkflowState, event: WorkflowEvent): WorkflowState {
  switch (event.type) {
    case 'WorkflowRegistered': {
      const { docId, form, author, workflow } = event.data;
      return { ...state, registered: true, docId, form, author, workflow };
    }
    case 'PhaseStarted': {
      const { phase, iteration, stages, dueDate } = event.data;
      return {
        ...state,
        phase,
        status: 'inProgress',
        step: 0,
        iteration,
        starts: { ...state.starts, [phase]: iteration },
        stages,
        dueDate: dueDate ?? '',
      };
    }
    case 'StageStarted': {
      const { step, dueAt, remindAt, escalateTo = [] } = event.data;
      const timer = dueAt ? { step, dueAt, remindAt, escalateTo, reminded: false, overdue: false } : null;
      return { ...state, step, timer };
    }
    case 'TasksDueSoon':
      return state.timer ? { ...state, timer: { ...state.timer, reminded: true } } : state;
    case 'TasksOverdue':
      return state.timer ? { ...state, timer: { ...state.timer, reminded: true, overdue: true } } : state;
    case 'TasksEscalated':
      return state;
    case 'TaskOpened': {
      const { respId, phase, step, iteration, assignee, onBehalfOf, at } = event.data;
      const task: Task = {
        respId,
        phase,
        step,
        iteration,
        assignee,
        ...(onBehalfOf ? { onBehalfOf } : {}),
        state: 'open',
        taskstatus: 0,
        content: '',
        openedAt: at,
      };
      const dueAt = earliest(state.dueDate, state.timer?.step === step ? state.timer.dueAt : '');
      if (dueAt) task.dueAt = dueAt;
      return { ...state, tasks: { ...state.tasks, [respId]: task } };
    }
    case 'TaskAnswered': {
      const { respId, taskstatus, content, answeredBy, onBehalfOf, at } = event.data;
      return updateTask(state, respId, {
        state: 'answered',
        taskstatus,
        content,
        answeredBy,
        ...(onBehalfOf ? { onBehalfOf } : {}),
        closedAt: at,
      });
    }
    case 'TaskReassigned':
      return updateTask(state, event.data.respId, {
        state: 'cancelled',
        closedAt: event.data.at,
        reassignedTo: event.data.to,
      });
    case 'TasksCancelled':
      return event.data.respIds.reduce(
        (s, respId) => updateTask(s, respId, { state: 'cancelled', closedAt: event.data.at }),
        state,
      );
    case 'PhaseCompleted':
      return { ...state, status: 'completed' };
    case 'PhaseDeclined':
      return { ...state, status: 'declined' };
    case 'WorkflowSuspended':
      return { ...state, status: 'suspended' };
    case 'WorkflowResumed':
      return { ...state, status: 'inProgress' };
    case 'WorkflowCancelled':
      return { ...state, status: 'cancelled' };
    case 'MovedToArchive':
      return moveTo(state, 'archive', event.data.iteration);
    case 'MovedToRepository':
      return moveTo(state, 'repository', event.data.iteration);
    case 'DocumentBlocked':
      return { ...state, status: 'blocked' };
    case 'DocumentDeleted':
      return { ...state, status: 'deleted' };
  }
}

/** The earliest of ISO 8601 UTC timestamps ('' for none), or '' when every one is ''. */
export function earliest(...dates: string[]): string {
  const set = dates.filter(Boolean);
  return set.length ? set.reduce((a, b) => (Date.parse(b) < Date.parse(a) ? b : a)) : '';
}

/** Timestamps come from the events' own `at`, so folding needs no event context. */
export function evolveWorkflow(state: WorkflowState, event: WorkflowEvent): WorkflowState {
  return { ...apply(state, event), lastModified: event.data.at };
}

export function foldWorkflow(events: readonly WorkflowEvent[], from = initialWorkflow): WorkflowState {
  return events.reduce(evolveWorkflow, from);
}

/** A deleted document answers 404 everywhere (DESIGN.md, "Transitions"). */
export const isDeleted = (state: WorkflowState) => state.status === 'deleted';

export const openTasks = (state: WorkflowState): Task[] =>
  Object.values(state.tasks).filter((t) => t.state === 'open');

/** Every task of the stage `of` belongs to (same phase, iteration and step), whatever its state. */
export const stageTasks = (state: WorkflowState, of: Pick<Task, 'phase' | 'iteration' | 'step'>): Task[] =>
  Object.values(state.tasks).filter(
    (t) => t.phase === of.phase && t.iteration === of.iteration && t.step === of.step,
  );
