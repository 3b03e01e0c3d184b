import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TimeoutError } from '@docflow/timing';
import { PatternBudget, runSteps, type Steps } from './pattern-steps';

function* count(n: number): Steps<number> {
  for (let i = 0; i < n; i++) yield;
  return n;
}

function* endless(): Steps<never> {
  for (;;) yield;
}

describe('pattern steps', () => {
  it('runSteps drives a generator to its value', () => {
    assert.equal(runSteps(count(5)), 5);
  });

  it('a budget gives the event loop turns between slices', async () => {
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    function* untilTurned(): Steps<string> {
      while (!turned) yield;
      return 'the loop had a turn';
    }
    // Without turns the flag never flips and the budget ends the run with a TimeoutError instead.
    assert.equal(await new PatternBudget(10_000).run(untilTurned()), 'the loop had a turn');
  });

  it('steps that never end stop at the budget, counted over every run of one file', async () => {
    const budget = new PatternBudget(50);
    assert.equal(await budget.run(count(3)), 3);
    await assert.rejects(budget.run(endless()), TimeoutError);
    await assert.rejects(budget.run(endless()), /patterns took longer than 50 ms/);
  });
});
