/**
 * Task responses (PUT docResponse/{respId}): every task status from every state, then stages, `next`
 * chaining, decline, restart, deputies and concurrent answers.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeputiesOf, RejectionKind, WorkflowEvent } from '@docflow/contracts';
import type { WorkflowState } from '@docflow/workflow-model';
import { decideAnswer, decideManage } from './businessLogic';
import {
  ALICE,
  APPROVAL_STAGE_1,
  APPROVAL_STAGE_2,
  ARCHIVE,
  AT,
  AUTHOR,
  BLOCKED,
  BOB,
  CANCELLED,
  CAROL,
  DAVE,
  DECLINED,
  DELETED,
  DEPUTY,
  decided,
  ERIN,
  EXECUTION,
  ev,
  given,
  inputs,
  nid,
  OUTSIDER,
  outcome,
  REGISTRATION,
  REPOSITORY,
  rejects,
  rid,
  SIGN,
  SIGN_COMPLETED,
  SUSPENDED,
} from './test-fixtures';

const answer =
  (respId: string, taskstatus: number, caller: string, deputiesOf: DeputiesOf = {}) =>
  (state: WorkflowState) =>
    decideAnswer({ respId, taskstatus, content: 'ok', caller, deputiesOf, ...inputs() }, state);

type Answer = 2 | 3 | 4 | 5 | 8;

/**
 * Each row: the assignee answers their task (respId) in this state with each task status.
 * The kind of its rejection (invalid, notApplicable…), or the document afterwards:
 * `phase status step/iteration, open: assignees`.
 *   2 approve  3 approve with edits  4 decline  5 execution done  8 sign
 */
const MATRIX: Array<{
  from: string;
  given: WorkflowEvent[];
  task: string;
  by: string;
  expect: Record<Answer, string>;
}> = [
  {
    from: 'registration: no task exists',
    given: REGISTRATION,
    task: rid(1),
    by: ALICE,
    expect: { 2: 'notFound', 3: 'notFound', 4: 'notFound', 5: 'notFound', 8: 'notFound' },
  },
  {
    from: 'approval stage 1, bob still to answer',
    given: APPROVAL_STAGE_1,
    task: rid(1),
    by: ALICE,
    expect: {
      2: 'approval inProgress 1/1, open: bob',
      3: 'approval inProgress 1/1, open: bob',
      4: 'approval declined 1/1, open: none',
      5: 'invalid',
      8: 'invalid',
    },
  },
  {
    from: 'approval last stage, last task: completes and flows into sign',
    given: APPROVAL_STAGE_2,
    task: rid(3),
    by: CAROL,
    expect: {
      2: 'sign inProgress 1/1, open: dave',
      3: 'sign inProgress 1/1, open: dave',
      4: 'approval declined 2/1, open: none',
      5: 'invalid',
      8: 'invalid',
    },
  },
  {
    from: 'sign, last task: completes (sign has no next)',
    given: SIGN,
    task: rid(4),
    by: DAVE,
    expect: {
      2: 'invalid',
      3: 'invalid',
      4: 'sign declined 1/1, open: none',
      5: 'invalid',
      8: 'sign completed 1/1, open: none',
    },
  },
  {
    from: 'execution, last task: completes and moves to the archive',
    given: EXECUTION,
    task: rid(5),
    by: ERIN,
    expect: {
      2: 'invalid',
      3: 'invalid',
      4: 'invalid',
      5: 'archive completed 0/1, open: none',
      8: 'invalid',
    },
  },
  {
    from: 'approval suspended',
    given: SUSPENDED,
    task: rid(1),
    by: ALICE,
    expect: { 2: 'notApplicable', 3: 'notApplicable', 4: 'notApplicable', 5: 'invalid', 8: 'invalid' },
  },
  {
    from: 'sign completed: the task is answered',
    given: SIGN_COMPLETED,
    task: rid(4),
    by: DAVE,
    expect: { 2: 'invalid', 3: 'invalid', 4: 'notApplicable', 5: 'invalid', 8: 'notApplicable' },
  },
  {
    from: 'approval declined: bob’s task was cancelled',
    given: DECLINED,
    task: rid(2),
    by: BOB,
    expect: { 2: 'notApplicable', 3: 'notApplicable', 4: 'notApplicable', 5: 'invalid', 8: 'invalid' },
  },
  {
    from: 'approval cancelled',
    given: CANCELLED,
    task: rid(1),
    by: ALICE,
    expect: { 2: 'notApplicable', 3: 'notApplicable', 4: 'notApplicable', 5: 'invalid', 8: 'invalid' },
  },
  {
    from: 'archive: the execution task is answered',
    given: ARCHIVE,
    task: rid(5),
    by: ERIN,
    expect: { 2: 'invalid', 3: 'invalid', 4: 'invalid', 5: 'notApplicable', 8: 'invalid' },
  },
  {
    from: 'repository',
    given: REPOSITORY,
    task: rid(5),
    by: ERIN,
    expect: { 2: 'invalid', 3: 'invalid', 4: 'invalid', 5: 'notApplicable', 8: 'invalid' },
  },
  {
    from: 'blocked',
    given: BLOCKED,
    task: rid(1),
    by: ALICE,
    expect: { 2: 'notApplicable', 3: 'notApplicable', 4: 'notApplicable', 5: 'invalid', 8: 'invalid' },
  },
  {
    from: 'deleted (not found, like GET)',
    given: DELETED,
    task: rid(1),
    by: ALICE,
    expect: { 2: 'notFound', 3: 'notFound', 4: 'notFound', 5: 'notFound', 8: 'notFound' },
  },
];

describe('responses: every task status from every state (by the assignee)', () => {
  for (const row of MATRIX) {
    describe(`from ${row.from}`, () => {
      for (const [taskstatus, expected] of Object.entries(row.expect)) {
        it(`${taskstatus} → ${expected}`, () => {
          assert.equal(outcome(given(row.given), answer(row.task, Number(taskstatus), row.by)), expected);
        });
      }
    });
  }
});

describe('responses: rejections', () => {
  const cases: Array<{
    name: string;
    given: WorkflowEvent[];
    when: ReturnType<typeof answer>;
    expect: RejectionKind;
  }> = [
    {
      name: 'a document never registered: 404',
      given: [],
      when: answer(rid(1), 2, ALICE),
      expect: 'notFound',
    },
    {
      name: 'an unknown respId: 404',
      given: APPROVAL_STAGE_1,
      when: answer(rid(9), 2, ALICE),
      expect: 'notFound',
    },
    {
      name: 'taskstatus 7 is no answer at all: 400',
      given: APPROVAL_STAGE_1,
      when: answer(rid(1), 7, ALICE),
      expect: 'invalid',
    },
    {
      name: 'a management status (101) is no answer: 400',
      given: APPROVAL_STAGE_1,
      when: answer(rid(1), 101, ALICE),
      expect: 'invalid',
    },
    {
      name: 'someone else’s task: 403, and it tells nothing about the task’s phase',
      given: APPROVAL_STAGE_1,
      when: answer(rid(1), 8, BOB),
      expect: 'forbidden',
    },
    {
      name: 'the author is no participant: 403',
      given: APPROVAL_STAGE_1,
      when: answer(rid(1), 2, AUTHOR),
      expect: 'forbidden',
    },
    {
      name: 'a task of a stage that moved on: 422',
      given: APPROVAL_STAGE_2,
      when: answer(rid(1), 2, ALICE),
      expect: 'notApplicable',
    },
    {
      name: 'a task of an earlier iteration (cancelled by 104): 422',
      given: [
        ...APPROVAL_STAGE_2,
        ev.cancelled([rid(3)], 'restarted'),
        ev.phaseStarted('approval', 2, [[ALICE, BOB], [CAROL]]),
        ev.stageStarted(1),
        ev.opened(rid(6), 'approval', 1, 2, ALICE),
        ev.opened(rid(7), 'approval', 1, 2, BOB),
      ],
      when: answer(rid(3), 2, CAROL),
      expect: 'notApplicable',
    },
  ];
  for (const c of cases) it(c.name, () => rejects(c.expect, () => c.when(given(c.given))));
});

describe('responses: the exact events', () => {
  it('an answer while others of the stage are open: only TaskAnswered', () => {
    assert.deepEqual(decided(answer(rid(1), 3, ALICE)(given(APPROVAL_STAGE_1))), [
      ev.answered(rid(1), 3, ALICE, AT),
    ]);
  });
  it('the last answer of stage 1 of 2: the next stage starts with new tasks', () => {
    const state = given(APPROVAL_STAGE_1, [ev.answered(rid(1), 2, ALICE)]);
    assert.deepEqual(decided(answer(rid(2), 2, BOB)(state)), [
      ev.answered(rid(2), 2, BOB, AT),
      ev.stageStarted(2, AT),
      ev.opened(nid(1), 'approval', 2, 1, CAROL, AT),
    ]);
  });
  it('the last answer of the last stage: the phase completes and its `next` starts in the same decision', () => {
    assert.deepEqual(decided(answer(rid(3), 2, CAROL)(given(APPROVAL_STAGE_2))), [
      ev.answered(rid(3), 2, CAROL, AT),
      ev.completed('approval', 1, AT),
      ev.phaseStarted('sign', 1, [[DAVE]], AT),
      ev.stageStarted(1, AT),
      ev.opened(nid(1), 'sign', 1, 1, DAVE, AT),
    ]);
  });
  it('`next: archive` just moves the document', () => {
    assert.deepEqual(decided(answer(rid(5), 5, ERIN)(given(EXECUTION))), [
      ev.answered(rid(5), 5, ERIN, AT),
      ev.completed('execution', 1, AT),
      ev.toArchive(1, AT),
    ]);
  });
  it('`next: repository` just moves the document', () => {
    const history = [
      ev.registered({ execution: { stages: [{ participants: [ERIN] }], next: 'repository' } }),
      ...EXECUTION.slice(1),
    ];
    assert.deepEqual(decided(answer(rid(5), 5, ERIN)(given(history))), [
      ev.answered(rid(5), 5, ERIN, AT),
      ev.completed('execution', 1, AT),
      ev.toRepository(1, AT),
    ]);
  });
  it('a next phase whose participant names no account: 422, and the answer is not recorded either', () => {
    const history = [
      ev.registered({
        approval: { stages: [{ participants: [CAROL] }], next: 'sign' },
        sign: { stages: [{ participants: ['nobody@example.com'] }] },
      }),
      ev.phaseStarted('approval', 1, [[CAROL]]),
      ev.stageStarted(1),
      ev.opened(rid(3), 'approval', 1, 1, CAROL),
    ];
    rejects('notApplicable', () => answer(rid(3), 2, CAROL)(given(history)));
  });
  it('decline: the answer, the stage’s other open tasks cancelled, the phase declined', () => {
    assert.deepEqual(decided(answer(rid(2), 4, BOB)(given(APPROVAL_STAGE_1))), [
      ev.answered(rid(2), 4, BOB, AT),
      ev.cancelled([rid(1)], 'declined', AT),
      ev.declined('approval', 1, rid(2), AT),
    ]);
  });
  it('decline of the only open task: nothing to cancel', () => {
    assert.deepEqual(decided(answer(rid(4), 4, DAVE)(given(SIGN))), [
      ev.answered(rid(4), 4, DAVE, AT),
      ev.declined('sign', 1, rid(4), AT),
    ]);
  });
  it('after a restart (104) the new tasks carry iteration 2 and answer as usual', () => {
    const restart = decided(
      decideManage(
        { taskstatus: 104, principal: { subject: AUTHOR, roles: [], isServiceAccount: false }, ...inputs() },
        given(APPROVAL_STAGE_2),
      ),
    );
    const state = given(APPROVAL_STAGE_2, restart);
    assert.equal(state.tasks[nid(1)]?.iteration, 2);
    assert.deepEqual(decided(answer(nid(1), 2, ALICE)(state)), [ev.answered(nid(1), 2, ALICE, AT)]);
    rejects('notApplicable', () => answer(rid(3), 2, CAROL)(state));
  });
});

describe('responses: deputies', () => {
  const enabled: DeputiesOf = { [ALICE]: { id: DEPUTY, enabled: true } };
  const disabled: DeputiesOf = { [ALICE]: { id: DEPUTY, enabled: false } };
  const cases: Array<{
    name: string;
    caller: string;
    deputiesOf: DeputiesOf;
    expect: WorkflowEvent[] | RejectionKind;
  }> = [
    {
      name: 'alice’s enabled deputy answers: recorded as the deputy acting for alice',
      caller: DEPUTY,
      deputiesOf: enabled,
      expect: [
        {
          type: 'TaskAnswered',
          data: {
            respId: rid(1),
            taskstatus: 2,
            content: 'ok',
            answeredBy: DEPUTY,
            onBehalfOf: ALICE,
            at: AT,
          },
        },
      ],
    },
    {
      name: 'alice herself still answers while her deputy is enabled',
      caller: ALICE,
      deputiesOf: enabled,
      expect: [ev.answered(rid(1), 2, ALICE, AT)],
    },
    { name: 'a disabled deputy: 403', caller: DEPUTY, deputiesOf: disabled, expect: 'forbidden' },
    {
      name: 'the deputy of someone else (bob): 403',
      caller: DEPUTY,
      deputiesOf: { [BOB]: { id: DEPUTY, enabled: true } },
      expect: 'forbidden',
    },
    { name: 'not a deputy at all: 403', caller: OUTSIDER, deputiesOf: enabled, expect: 'forbidden' },
  ];
  for (const c of cases)
    it(c.name, () => {
      const when = answer(rid(1), 2, c.caller, c.deputiesOf);
      if (typeof c.expect === 'string') rejects(c.expect, () => when(given(APPROVAL_STAGE_1)));
      else assert.deepEqual(decided(when(given(APPROVAL_STAGE_1))), c.expect);
    });
  it('the deputy’s answer is kept on the task', () => {
    const state = given(APPROVAL_STAGE_1, answer(rid(1), 3, DEPUTY, enabled)(given(APPROVAL_STAGE_1)));
    const task = state.tasks[rid(1)];
    assert.equal(task?.answeredBy, DEPUTY);
    assert.equal(task?.onBehalfOf, ALICE);
    assert.equal(task?.taskstatus, 3);
  });
});

describe('responses: answering twice and concurrent answers', () => {
  it('the same task answered twice: the second gets 422', () => {
    const first = answer(rid(1), 2, ALICE)(given(APPROVAL_STAGE_1));
    rejects('notApplicable', () => answer(rid(1), 2, ALICE)(given(APPROVAL_STAGE_1, first)));
  });
  it('assignee and deputy race on one task: whoever is decided second, on the state after the first, gets 422', () => {
    const deputies: DeputiesOf = { [ALICE]: { id: DEPUTY, enabled: true } };
    const byAlice = answer(rid(1), 2, ALICE)(given(APPROVAL_STAGE_1));
    rejects('notApplicable', () => answer(rid(1), 4, DEPUTY, deputies)(given(APPROVAL_STAGE_1, byAlice)));
  });
  it('alice and bob race on stage 1: each alone sees the other open; decided again after the first, bob starts stage 2', () => {
    const start = given(APPROVAL_STAGE_1);
    const byAlice = answer(rid(1), 2, ALICE)(start);
    assert.deepEqual(answer(rid(2), 2, BOB)(start), [ev.answered(rid(2), 2, BOB, AT)]);
    assert.deepEqual(
      answer(rid(2), 2, BOB)(given(APPROVAL_STAGE_1, byAlice)).map((e) => e.type),
      ['TaskAnswered', 'StageStarted', 'TaskOpened'],
    );
  });
  it('a decline and an approval race: the approval decided after the decline gets 422', () => {
    const byBob = answer(rid(2), 4, BOB)(given(APPROVAL_STAGE_1));
    rejects('notApplicable', () => answer(rid(1), 2, ALICE)(given(APPROVAL_STAGE_1, byBob)));
  });
  it('an answer decided after the document was suspended gets 422', () => {
    rejects('notApplicable', () => answer(rid(1), 2, ALICE)(given(APPROVAL_STAGE_1, [ev.suspended()])));
  });
});
