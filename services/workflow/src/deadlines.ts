/**
 * When a stage's tasks are due and when the reminder goes out, from the form's stage deadline and the
 * moment the stage started (docs/decisions.md, "Stage deadlines"). Pure.
 */
import { type Duration, parseDuration, type StageDeadline, type WorkflowEvent } from '@docflow/contracts';

const DAY_MS = 86_400_000;
const isWeekend = (t: number) => {
  const day = new Date(t).getUTCDay();
  return day === 0 || day === 6;
};

/**
 * `at` moved by `duration`, forwards (sign 1) or backwards (-1). With working days each day counted
 * lands on a Monday to Friday (UTC), stepping over Saturdays and Sundays; the time part runs on the clock.
 */
export function shiftBy(at: number, duration: Duration, sign: 1 | -1, workingDays: boolean): number {
  let t = at;
  for (let left = duration.days; left > 0; ) {
    t += sign * DAY_MS;
    if (!workingDays || !isWeekend(t)) left--;
  }
  return t + sign * duration.ms;
}

type StageDue = Pick<Extract<WorkflowEvent, { type: 'StageStarted' }>['data'], 'dueAt' | 'remindAt'>;

/** The due fields of a StageStarted at `at` (ISO); none when the stage has no deadline. */
export function stageDue(deadline: StageDeadline | undefined, at: string): StageDue {
  const within = deadline && parseDuration(deadline.within);
  if (!within) return {};
  const workingDays = deadline.workingDays ?? false;
  const due = shiftBy(Date.parse(at), within, 1, workingDays);
  const before = deadline.remindBefore ? parseDuration(deadline.remindBefore) : undefined;
  const remind = before && Math.max(Date.parse(at), shiftBy(due, before, -1, workingDays));
  return {
    dueAt: new Date(due).toISOString(),
    ...(remind !== undefined ? { remindAt: new Date(remind).toISOString() } : {}),
  };
}
