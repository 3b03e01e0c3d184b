/**
 * Stage deadlines in a form's workflow (issue 36): how long a stage's tasks may stay open, when to
 * remind, and what happens at the deadline. Durations are ISO 8601 with weeks, days, hours, minutes
 * and seconds only (`P2D`, `PT4H`, `P1DT12H`): years and months have no fixed length.
 */
import { z } from '@hono/zod-openapi';
import { RESPONSE_TASK_STATUS } from './codes';
import { Participant } from './participant';

const DURATION = /^P(?:(\d{1,4})W)?(?:(\d{1,4})D)?(?:T(?:(\d{1,5})H)?(?:(\d{1,6})M)?(?:(\d{1,7})S)?)?$/;

/** A duration split into whole days (weeks counted as 7) and the time of day part in milliseconds. */
export interface Duration {
  days: number;
  ms: number;
}

/** The parts of an ISO 8601 duration, or undefined when it is not one this service accepts. */
export function parseDuration(text: string): Duration | undefined {
  const m = DURATION.exec(text);
  if (!m || text === 'P' || text.endsWith('T')) return undefined;
  const [, w, d, h, min, s] = m.map((v) => Number(v ?? 0));
  return { days: w! * 7 + d!, ms: ((h! * 60 + min!) * 60 + s!) * 1000 };
}

export const IsoDuration = z
  .string()
  .refine(
    (text) => parseDuration(text) !== undefined,
    'an ISO 8601 duration of weeks, days and time: P2D, PT4H',
  )
  .openapi({ example: 'P2D' });

/** What happens at a stage's deadline to its open tasks. */
export const ESCALATION_ACTIONS = ['notify', 'reassign', 'addParticipants', 'autoAnswer'] as const;
export const EscalationAction = z.enum(ESCALATION_ACTIONS);
export type EscalationAction = z.infer<typeof EscalationAction>;

export const Escalation = z.strictObject({
  /**
   * notify: tell the contacts; reassign: the open tasks close and each contact gets one; addParticipants:
   * each contact gets a task beside the open ones; autoAnswer: every open task is answered with `answer`.
   */
  action: EscalationAction,
  /** Escalation contacts (`usr-` ids or e-mails); needed by every action but autoAnswer. */
  contacts: z.array(Participant).min(1).max(20).optional(),
  /** autoAnswer: the taskstatus recorded (e.g. 2, approve after silence); it must answer the phase. */
  answer: z.literal(Object.values(RESPONSE_TASK_STATUS)).optional(),
});
export type Escalation = z.infer<typeof Escalation>;

export const StageDeadline = z.strictObject({
  /** How long after the stage started its tasks are due. */
  within: IsoDuration,
  /** Count days Monday to Friday only (UTC); hours, minutes and seconds run on the calendar. */
  workingDays: z.boolean().optional(),
  /** When the reminder (`task.due_soon`) goes out: this long before the deadline. */
  remindBefore: IsoDuration.optional(),
  escalation: Escalation.optional(),
});
export type StageDeadline = z.infer<typeof StageDeadline>;

/** The answers a task of each work phase takes (approve/decline, sign/decline, done). */
export const ANSWERS_OF_PHASE = {
  approval: [
    RESPONSE_TASK_STATUS.approve,
    RESPONSE_TASK_STATUS.approveWithEdits,
    RESPONSE_TASK_STATUS.decline,
  ],
  sign: [RESPONSE_TASK_STATUS.sign, RESPONSE_TASK_STATUS.decline],
  execution: [RESPONSE_TASK_STATUS.executionDone],
} as const satisfies Record<string, readonly number[]>;

/** Why an escalation cannot run in a stage of `phase`, or undefined when it can. */
export function escalationProblem(
  phase: keyof typeof ANSWERS_OF_PHASE,
  escalation: Escalation | undefined,
): string | undefined {
  if (!escalation) return undefined;
  if (escalation.action !== 'autoAnswer')
    return escalation.contacts ? undefined : `${escalation.action} needs contacts`;
  const answers: readonly number[] = ANSWERS_OF_PHASE[phase];
  return escalation.answer !== undefined && answers.includes(escalation.answer)
    ? undefined
    : `autoAnswer needs an answer a ${phase} task takes: ${answers.join(', ')}`;
}
