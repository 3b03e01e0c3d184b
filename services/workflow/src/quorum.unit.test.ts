/**
 * Quorum (docs/decisions.md, "Quorum"): a stage of alice, bob and carol completes after all, any one, or
 * N approvals; a decline ends the phase, or counts against the quorum when the form says so. The tasks
 * a completed stage no longer needs close (reason `quorum`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FormDefinition, type Quorum, type WorkflowConfig } from '@docflow/contracts';
import { foldWorkflow, type WorkflowState } from '@docflow/workflow-model';
import { decideAnswer } from './businessLogic';
import { ALICE, BOB, CAROL, DAVE, decided, ev, given, inputs, outcome, rid } from './test-fixtures';

function stageOfThree(quorum?: Quorum, onDecline?: WorkflowConfig['onDecline']): WorkflowState {
  const workflow: WorkflowConfig = {
    approval: {
      stages: [{ participants: [ALICE, BOB, CAROL], ...(quorum ? { quorum } : {}) }],
      next: 'sign',
    },
    sign: { stages: [{ participants: [DAVE] }] },
    ...(onDecline ? { onDecline } : {}),
  };
  return given([
    ev.registered(workflow),
    ev.phaseStarted('approval', 1, [[ALICE, BOB, CAROL]]),
    ev.stageStarted(1),
    ev.opened(rid(1), 'approval', 1, 1, ALICE),
    ev.opened(rid(2), 'approval', 1, 1, BOB),
    ev.opened(rid(3), 'approval', 1, 1, CAROL),
  ]);
}

const APPROVE = 2;
const DECLINE = 4;
const BY: Record<string, string> = { [rid(1)]: ALICE, [rid(2)]: BOB, [rid(3)]: CAROL };

const answer = (respId: string, taskstatus: number) => (state: WorkflowState) =>
  decideAnswer({ respId, taskstatus, content: '', caller: BY[respId]!, deputiesOf: {}, ...inputs() }, state);

/** The outcome after each answer in turn (alice's task 1, bob's 2, carol's 3), each on the state the one before left. */
function afterEach(state: WorkflowState, ...steps: Array<[string, number]>): string[] {
  const seen: string[] = [];
  let s = state;
  for (const [respId, taskstatus] of steps) {
    seen.push(outcome(s, answer(respId, taskstatus)));
    s = foldWorkflow(answer(respId, taskstatus)(s), s);
  }
  return seen;
}

describe('quorum: when a stage completes', () => {
  it('all (the default): after the third approval, as before', () => {
    assert.deepEqual(afterEach(stageOfThree(), [rid(1), APPROVE], [rid(2), APPROVE], [rid(3), APPROVE]), [
      'approval inProgress 1/1, open: bob carol',
      'approval inProgress 1/1, open: carol',
      'sign inProgress 1/1, open: dave',
    ]);
    assert.deepEqual(afterEach(stageOfThree('all'), [rid(2), APPROVE]), [
      'approval inProgress 1/1, open: alice carol',
    ]);
  });

  it('any: the first approval completes it and closes the two other tasks as quorum', () => {
    const events = decided(answer(rid(2), APPROVE)(stageOfThree('any')));
    assert.deepEqual(events.find((e) => e.type === 'TasksCancelled')?.data, {
      respIds: [rid(1), rid(3)],
      reason: 'quorum',
      at: inputs().at,
    });
    assert.equal(outcome(stageOfThree('any'), answer(rid(2), APPROVE)), 'sign inProgress 1/1, open: dave');
  });

  it('N = 2: the second approval completes it, the third task closes', () => {
    const state = stageOfThree(2);
    assert.deepEqual(afterEach(state, [rid(3), APPROVE], [rid(1), APPROVE]), [
      'approval inProgress 1/1, open: alice bob',
      'sign inProgress 1/1, open: dave',
    ]);
    const second = foldWorkflow(answer(rid(3), APPROVE)(state), state);
    const closed = decided(answer(rid(1), APPROVE)(second)).find((e) => e.type === 'TasksCancelled');
    assert.deepEqual(closed?.data, { respIds: [rid(2)], reason: 'quorum', at: inputs().at });
  });
});

describe('quorum: a decline', () => {
  it('ends the phase by default, whatever the quorum', () => {
    for (const quorum of ['all', 'any', 2] as const)
      assert.deepEqual(afterEach(stageOfThree(quorum), [rid(1), DECLINE]), [
        'approval declined 1/1, open: none',
      ]);
  });

  it('counts against the quorum with onDecline countAgainstQuorum: N = 2 survives one decline, not two', () => {
    const state = stageOfThree(2, 'countAgainstQuorum');
    assert.deepEqual(afterEach(state, [rid(1), DECLINE], [rid(2), APPROVE], [rid(3), APPROVE]), [
      'approval inProgress 1/1, open: bob carol',
      'approval inProgress 1/1, open: carol',
      'sign inProgress 1/1, open: dave',
    ]);
    assert.deepEqual(afterEach(state, [rid(1), DECLINE], [rid(2), DECLINE]), [
      'approval inProgress 1/1, open: bob carol',
      'approval declined 1/1, open: none',
    ]);
  });

  it('counting against any: the phase is declined only when everyone declined', () => {
    const state = stageOfThree('any', 'countAgainstQuorum');
    assert.deepEqual(afterEach(state, [rid(1), DECLINE], [rid(2), DECLINE], [rid(3), DECLINE]), [
      'approval inProgress 1/1, open: bob carol',
      'approval inProgress 1/1, open: carol',
      'approval declined 1/1, open: none',
    ]);
  });

  it('counting against all: one decline makes all unreachable, so the phase is declined', () => {
    assert.deepEqual(afterEach(stageOfThree('all', 'countAgainstQuorum'), [rid(2), DECLINE]), [
      'approval declined 1/1, open: none',
    ]);
  });
});

describe('quorum in a form definition', () => {
  const form = (quorum: Quorum) => ({
    name: 'q',
    title: 'Q',
    formsystype: 1,
    tags: {},
    workflow: { approval: { stages: [{ participants: [ALICE, BOB], quorum }] } },
  });

  it('accepts all, any and N up to the participants; refuses more approvals than participants', () => {
    for (const quorum of ['all', 'any', 1, 2] as const)
      assert.ok(FormDefinition.safeParse(form(quorum)).success);
    const refused = FormDefinition.safeParse(form(3));
    assert.equal(refused.success, false);
    assert.deepEqual(refused.error?.issues[0]?.path, ['workflow', 'approval', 'stages', 0, 'quorum']);
  });
});
