/**
 * Events of the workflow service's `workflow-<docId>` streams, all schema version 1. Together they
 * rebuild the document's `state`, `step`, `iteration` and `status` and every DocResponse. Each event
 * carries `at` (ISO 8601 UTC), the moment it happened, so that the copy the document service records
 * in `docForm-<_id>` keeps the original time of every task and phase change.
 */
import { z } from '@hono/zod-openapi';
import { RESPONSE_TASK_STATUS } from './codes';
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
  StageStarted: z.object({ step, at }),
  TaskOpened: z.object({ respId: Hex24Id, phase: WorkPhase, step, iteration, assignee: UsrId, at }),
  TaskAnswered: z.object({
    respId: Hex24Id,
    taskstatus: ResponseTaskStatus,
    content: z.string(),
    /** Who answered: the assignee, or the assignee's enabled deputy. */
    answeredBy: UsrId,
    /** The assignee, when their deputy answered. */
    onBehalfOf: UsrId.optional(),
    at,
  }),
  TasksCancelled: z.object({
    respIds: z.array(Hex24Id).min(1),
    reason: z.enum(['declined', 'cancelled', 'restarted', 'blocked', 'deleted']),
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
