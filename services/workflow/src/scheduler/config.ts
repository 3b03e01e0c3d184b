/** The scheduler's settings, in both run modes. */
import { z } from 'zod';
import { type Clock, fileOffsetClock, systemClock } from './clock';

export const SchedulerEnv = z.object({
  /** How often the scheduler looks for due reminders and deadlines (ms). */
  DOCFLOW_SCHEDULER_POLL_MS: z.coerce.number().int().min(10).max(600_000).default(1000),
  /** Tests only: a file holding milliseconds added to the workflow service's clock. */
  DOCFLOW_CLOCK_OFFSET_FILE: z.string().min(1).optional(),
});
export type SchedulerEnv = z.infer<typeof SchedulerEnv>;

export function schedulerSettings(env: SchedulerEnv): { clock: Clock; schedulerPollMs: number } {
  return {
    clock: env.DOCFLOW_CLOCK_OFFSET_FILE ? fileOffsetClock(env.DOCFLOW_CLOCK_OFFSET_FILE) : systemClock,
    schedulerPollMs: env.DOCFLOW_SCHEDULER_POLL_MS,
  };
}
