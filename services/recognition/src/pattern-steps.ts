/**
 * Pattern work in steps. Classification and extraction are generators that yield after each pattern
 * run: `runSteps` drives one to its end at once (their pure, synchronous API); a recognition job drives
 * them through a `PatternBudget`, which gives the event loop a turn every SLICE_MS and stops the job
 * once its patterns have used up the budget. So a hostile form holds the event loop for at most one
 * run, and a file for at most the budget (README, "Bounds").
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { TimeoutError } from '@docflow/timing';

export type Steps<T> = Generator<void, T, undefined>;

/** Pattern time between two turns of the event loop. */
const SLICE_MS = 20;

export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** The pattern time one file may take, counted over every `run` (time spent waiting is not counted). */
export class PatternBudget {
  private spentMs = 0;

  constructor(readonly budgetMs: number) {}

  /** Drives `steps` to its end in slices; rejects with a TimeoutError once the budget is spent. */
  async run<T>(steps: Steps<T>): Promise<T> {
    for (;;) {
      // A turn before every slice, the first too: work done before the call may have held the loop.
      await nextTurn();
      const started = performance.now();
      let step = steps.next();
      while (!step.done && performance.now() - started < SLICE_MS) step = steps.next();
      this.spentMs += performance.now() - started;
      if (step.done) return step.value;
      if (this.spentMs > this.budgetMs)
        throw new TimeoutError(`the recognition forms' patterns took longer than ${this.budgetMs} ms`);
    }
  }
}
