/**
 * Events of the workflow service's `workflow-<docId>` streams, all schema version 1. Together they
 * rebuild the document's `state`, `step`, `iteration` and `status` and every DocResponse. Each event
 * carries `at` (ISO 8601 UTC), the moment it happened, so that the copy the document service records
 * in `docForm-<_id>` keeps the original time of every task and phase change.
 */
import { z } from '@hono/zod-openapi';
import { RESPONSE_TASK_STATUS } from './codes';
import { EscalationAction } from './deadlines';
import { WorkflowConfig } from './forms';
import { Hex24Id, Timestamp, UsrId } from './ids';

/** Phases that have stages and tasks; archive and repository are only places a document moves to. */
export const WORK_PHASES = ['approval', 'sign', 'execution'] as const;
export const WorkPhase = z.enum(WORK_PHASES);
export type WorkPhase = z.infer<typeof WorkPhase>;

/** A DocResponse's answer (RESPONSE_TASK_STATUS in codes.ts). */
export type ResponseTaskStatus = (typeof RESPONSE_TASK_STATUS)[keyof typeof RESPONSE_TASK_STATUS];
export const ResponseTaskStatus = z.literal(Object.values(RESPONSE_TASK_STATUS));

const at = Timestamp;
const iteration = z.number().int().min(1);
const step = z.number().int().min(1);

export const WorkflowEvents = {
  /** The document exists (from DocumentCreated), with its form's workflow configuration as it was then. */
  WorkflowRegistered: z.object({
    docId: Hex24Id,
    form: z.string(),
    author: UsrId,
    workflow: WorkflowConfig,
    at,
  }),
  /** `stages` holds the participants of each stage, resolved to `usr-` ids when the phase started. */
  PhaseStarted: z.object({
    phase: WorkPhase,
    iteration,
    stages: z.array(z.array(UsrId).min(1)).min(1),
    /** When the form sets `dueDays`: the phase's tasks are due this many days after it started. */
    dueDate: Timestamp.optional(),
    at,
  }),
  /**
   * With a stage deadline in the form: when its tasks are due, when the reminder goes out, and the
   * escalation contacts resolved to `usr-` ids as the stage started.
   */
  StageStarted: z.object({
    step,
    dueAt: Timestamp.optional(),
    remindAt: Timestamp.optional(),
    escalateTo: z.array(UsrId).optional(),
    at,
  }),
  TaskOpened: z.object({
    respId: Hex24Id,
    phase: WorkPhase,
    step,
    iteration,
    assignee: UsrId,
    /** The participant who was absent when it opened: `assignee` is their deputy, acting for them. */
    onBehalfOf: UsrId.optional(),
    at,
  }),
  TaskAnswered: z.object({
    respId: Hex24Id,
    taskstatus: ResponseTaskStatus,
    content: z.string(),
    /** Who answered: the assignee, or the assignee's enabled deputy. */
    answeredBy: UsrId,
    /** The assignee, when their deputy answered. */
    onBehalfOf: UsrId.optional(),
    /** Answered by the stage's escalation (autoAnswer), not by a person: `answeredBy` is the assignee. */
    automatic: z.literal(true).optional(),
    at,
  }),
  /** The open task `respId` of `from` closed, handed to `to` (a TaskOpened for `to` follows). */
  TaskReassigned: z.object({ respId: Hex24Id, from: UsrId, to: UsrId, reason: z.string(), at }),
  TasksCancelled: z.object({
    respIds: z.array(Hex24Id).min(1),
    /** `quorum`: the stage completed by its quorum, so the tasks it no longer needs close. */
    reason: z.enum(['declined', 'cancelled', 'restarted', 'blocked', 'deleted', 'escalated', 'quorum']),
    at,
  }),
  // The scheduler's facts (issue 36): the stage's deadline rule acting, never a person.
  /** The reminder: the stage's open tasks are due at `dueAt`. */
  TasksDueSoon: z.object({ step, iteration, respIds: z.array(Hex24Id).min(1), dueAt: Timestamp, at }),
  /** The deadline passed with these tasks open. */
  TasksOverdue: z.object({ step, iteration, respIds: z.array(Hex24Id).min(1), dueAt: Timestamp, at }),
  /** The form's escalation acted on the overdue tasks: `to` the contacts, `reason` in words. */
  TasksEscalated: z.object({
    step,
    iteration,
    respIds: z.array(Hex24Id).min(1),
    action: EscalationAction,
    to: z.array(UsrId),
    reason: z.string(),
    at,
  }),
  PhaseCompleted: z.object({ phase: WorkPhase, iteration, at }),
  /** `respId`: the response that declined. */
  PhaseDeclined: z.object({ phase: WorkPhase, iteration, respId: Hex24Id, at }),
  WorkflowSuspended: z.object({ at }),
  WorkflowResumed: z.object({ at }),
  WorkflowCancelled: z.object({ at }),
  MovedToArchive: z.object({ iteration, at }),
  MovedToRepository: z.object({ iteration, at }),
  DocumentBlocked: z.object({ at }),
  DocumentDeleted: z.object({ at }),
};

export type WorkflowEvent = {
  [K in keyof typeof WorkflowEvents]: { type: K; data: z.infer<(typeof WorkflowEvents)[K]> };
}[keyof typeof WorkflowEvents];

/** Validates a stored or delivered workflow event; throws on an unknown type or a bad payload. */
export function parseWorkflowEvent(type: string, data: unknown): WorkflowEvent {
  const schema = WorkflowEvents[type as keyof typeof WorkflowEvents];
  if (!schema) throw new Error(`unknown workflow event type ${type}`);
  return { type, data: schema.parse(data) } as WorkflowEvent;
}

export const workflowStream = (docId: string) => `workflow-${docId}`;
