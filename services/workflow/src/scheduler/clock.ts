/**
 * The time the workflow service decides by: stage deadlines are computed from it and the scheduler
 * fires by it. Tests move it (fileOffsetClock) instead of waiting days.
 */
import { readFileSync } from 'node:fs';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * The system time plus the milliseconds written in `file` (DOCFLOW_CLOCK_OFFSET_FILE; 0 while the
 * file is missing or empty): a test process writes the file to move a running service's clock.
 */
export function fileOffsetClock(file: string): Clock {
  return {
    now() {
      let offset = 0;
      try {
        offset = Number(readFileSync(file, 'utf8').trim() || 0);
      } catch {
        // no file yet: no offset
      }
      return new Date(Date.now() + (Number.isFinite(offset) ? offset : 0));
    },
  };
}

/** A clock that stands still until moved (unit and integration tests in one process). */
export function manualClock(start: Date): Clock & { advance(ms: number): void } {
  let t = start.getTime();
  return {
    now: () => new Date(t),
    advance(ms) {
      t += ms;
    },
  };
}
