/**
 * Givens of the workflow service's unit tests: the model's people and histories, and what running a
 * decision needs (inputs, the schema check of its events, its outcome).
 */
import assert from 'node:assert/strict';
import { parseWorkflowEvent, Rejection, type RejectionKind, type WorkflowEvent } from '@docflow/contracts';
import { foldWorkflow, type WorkflowState } from '@docflow/workflow-model';
import { ALICE, AT, summary } from '@docflow/workflow-model/testing';
import type { DecisionInputs } from './businessLogic';

export * from '@docflow/workflow-model/testing';

/** respId the decision under test generates: the n-th call of `newId`. */
export const nid = (n: number) => `f${n.toString(16).padStart(23, '0')}`;

export const PARTICIPANTS = { 'alice@example.com': ALICE };

/** Inputs of a decision at `AT`, with a fresh respId counter. */
export function inputs(): DecisionInputs {
  let n = 0;
  return { at: AT, newId: () => nid(++n), participants: PARTICIPANTS };
}

/** Runs a decision; every event it returns must pass its contract schema. */
export function decided(events: WorkflowEvent[]): WorkflowEvent[] {
  for (const e of events)
    assert.deepEqual(parseWorkflowEvent(e.type, e.data), e, `${e.type} fits its schema`);
  return events;
}

/** A decision's outcome: the kind of its rejection, or the summary of the state after it. */
export function outcome(state: WorkflowState, decide: (s: WorkflowState) => WorkflowEvent[]): string {
  try {
    return summary(foldWorkflow(decided(decide(state)), state));
  } catch (err) {
    if (err instanceof Rejection) return err.kind;
    throw err;
  }
}

export function rejects(kind: RejectionKind, fn: () => unknown): void {
  assert.throws(fn, (err: unknown) => err instanceof Rejection && err.kind === kind);
}
