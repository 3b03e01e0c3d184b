/**
 * Workflow management (POST docResponse, and the actions of the create request): every action from
 * every state, then the exact events of each kind of move.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RejectionKind, WorkflowEvent } from '@docflow/contracts';
import type { WorkflowState } from '@docflow/workflow-model';
import type { ManagePrincipal } from './access';
import { decideCreateAction, decideManage } from './businessLogic';
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
  decided,
  ERIN,
  EXECUTION,
  ev,
  given,
  inputs,
  MEMO,
  nid,
  outcome,
  REGISTRATION,
  REPOSITORY,
  rejects,
  rid,
  SIGN,
  SIGN_COMPLETED,
  SUSPENDED,
} from './test-fixtures';

const AUTHOR_USER: ManagePrincipal = { subject: AUTHOR, roles: [], isServiceAccount: false };

const manage =
  (taskstatus: number, principal = AUTHOR_USER) =>
  (state: WorkflowState) =>
    decideManage({ taskstatus, principal, ...inputs() }, state);

type Action = 100 | 101 | 102 | 103 | 104 | 105 | 106 | 107 | 108 | 110 | 111;

/**
 * Each row: from this state, what each action (by the author) gives: the kind of its rejection
 * (notApplicable, notFound…), or the document afterwards: `phase status step/iteration, open: assignees`.
 *   100 approval  101 suspend  102 resume  103 cancel  104 restart  105 sign  106 execution
 *   107 archive   108 repository  110 block  111 delete
 */
const MATRIX: Array<{ from: string; given: WorkflowEvent[]; expect: Record<Action, string> }> = [
  {
    from: 'registration (draft)',
    given: REGISTRATION,
    expect: {
      100: 'approval inProgress 1/1, open: alice bob',
      101: 'notApplicable',
      102: 'notApplicable',
      103: 'notApplicable',
      104: 'approval inProgress 1/1, open: alice bob',
      105: 'sign inProgress 1/1, open: dave',
      106: 'execution inProgress 1/1, open: erin',
      107: 'archive completed 0/1, open: none',
      108: 'repository completed 0/1, open: none',
      110: 'registration blocked 0/0, open: none',
      111: 'registration deleted 0/0, open: none',
    },
  },
  {
    from: 'approval in progress (stage 2 of 2)',
    given: APPROVAL_STAGE_2,
    expect: {
      100: 'notApplicable',
      101: 'approval suspended 2/1, open: carol',
      102: 'notApplicable',
      103: 'approval cancelled 2/1, open: none',
      104: 'approval inProgress 1/2, open: alice bob',
      105: 'notApplicable',
      106: 'notApplicable',
      107: 'notApplicable',
      108: 'notApplicable',
      110: 'approval blocked 2/1, open: none',
      111: 'approval deleted 2/1, open: none',
    },
  },
  {
    from: 'sign in progress',
    given: SIGN,
    expect: {
      100: 'notApplicable',
      101: 'sign suspended 1/1, open: dave',
      102: 'notApplicable',
      103: 'sign cancelled 1/1, open: none',
      104: 'sign inProgress 1/2, open: dave',
      105: 'notApplicable',
      106: 'notApplicable',
      107: 'notApplicable',
      108: 'notApplicable',
      110: 'sign blocked 1/1, open: none',
      111: 'sign deleted 1/1, open: none',
    },
  },
  {
    from: 'execution in progress',
    given: EXECUTION,
    expect: {
      100: 'notApplicable',
      101: 'execution suspended 1/1, open: erin',
      102: 'notApplicable',
      103: 'execution cancelled 1/1, open: none',
      104: 'execution inProgress 1/2, open: erin',
      105: 'notApplicable',
      106: 'notApplicable',
      107: 'notApplicable',
      108: 'notApplicable',
      110: 'execution blocked 1/1, open: none',
      111: 'execution deleted 1/1, open: none',
    },
  },
  {
    from: 'approval suspended',
    given: SUSPENDED,
    expect: {
      100: 'notApplicable',
      101: 'notApplicable',
      102: 'approval inProgress 1/1, open: alice bob',
      103: 'approval cancelled 1/1, open: none',
      104: 'approval inProgress 1/2, open: alice bob',
      105: 'notApplicable',
      106: 'notApplicable',
      107: 'notApplicable',
      108: 'notApplicable',
      110: 'approval blocked 1/1, open: none',
      111: 'approval deleted 1/1, open: none',
    },
  },
  {
    from: 'sign completed (approval ran once before)',
    given: SIGN_COMPLETED,
    expect: {
      100: 'approval inProgress 1/2, open: alice bob',
      101: 'notApplicable',
      102: 'notApplicable',
      103: 'notApplicable',
      104: 'sign inProgress 1/2, open: dave',
      105: 'sign inProgress 1/2, open: dave',
      106: 'execution inProgress 1/1, open: erin',
      107: 'archive completed 0/1, open: none',
      108: 'repository completed 0/1, open: none',
      110: 'sign blocked 1/1, open: none',
      111: 'sign deleted 1/1, open: none',
    },
  },
  {
    from: 'approval declined',
    given: DECLINED,
    expect: {
      100: 'approval inProgress 1/2, open: alice bob',
      101: 'notApplicable',
      102: 'notApplicable',
      103: 'notApplicable',
      104: 'approval inProgress 1/2, open: alice bob',
      105: 'sign inProgress 1/1, open: dave',
      106: 'execution inProgress 1/1, open: erin',
      107: 'archive completed 0/1, open: none',
      108: 'repository completed 0/1, open: none',
      110: 'approval blocked 1/1, open: none',
      111: 'approval deleted 1/1, open: none',
    },
  },
  {
    from: 'approval cancelled',
    given: CANCELLED,
    expect: {
      100: 'approval inProgress 1/2, open: alice bob',
      101: 'notApplicable',
      102: 'notApplicable',
      103: 'notApplicable',
      104: 'approval inProgress 1/2, open: alice bob',
      105: 'sign inProgress 1/1, open: dave',
      106: 'execution inProgress 1/1, open: erin',
      107: 'archive completed 0/1, open: none',
      108: 'repository completed 0/1, open: none',
      110: 'approval blocked 1/1, open: none',
      111: 'approval deleted 1/1, open: none',
    },
  },
  {
    from: 'archive',
    given: ARCHIVE,
    expect: {
      100: 'notApplicable',
      101: 'notApplicable',
      102: 'notApplicable',
      103: 'notApplicable',
      104: 'notApplicable',
      105: 'notApplicable',
      106: 'notApplicable',
      107: 'notApplicable',
      108: 'repository completed 0/1, open: none',
      110: 'archive blocked 0/1, open: none',
      111: 'archive deleted 0/1, open: none',
    },
  },
  {
    from: 'repository',
    given: REPOSITORY,
    expect: {
      100: 'notApplicable',
      101: 'notApplicable',
      102: 'notApplicable',
      103: 'notApplicable',
      104: 'notApplicable',
      105: 'notApplicable',
      106: 'notApplicable',
      107: 'notApplicable',
      108: 'notApplicable',
      110: 'repository blocked 0/1, open: none',
      111: 'repository deleted 0/1, open: none',
    },
  },
  {
    from: 'blocked (only delete is accepted)',
    given: BLOCKED,
    expect: {
      100: 'notApplicable',
      101: 'notApplicable',
      102: 'notApplicable',
      103: 'notApplicable',
      104: 'notApplicable',
      105: 'notApplicable',
      106: 'notApplicable',
      107: 'notApplicable',
      108: 'notApplicable',
      110: 'notApplicable',
      111: 'approval deleted 1/1, open: none',
    },
  },
  {
    from: 'deleted (not found, like GET)',
    given: DELETED,
    expect: {
      100: 'notFound',
      101: 'notFound',
      102: 'notFound',
      103: 'notFound',
      104: 'notFound',
      105: 'notFound',
      106: 'notFound',
      107: 'notFound',
      108: 'notFound',
      110: 'notFound',
      111: 'notFound',
    },
  },
];

describe('management: every action from every state (by the author)', () => {
  for (const row of MATRIX) {
    describe(`from ${row.from}`, () => {
      for (const [action, expected] of Object.entries(row.expect)) {
        it(`${action} → ${expected}`, () => {
          assert.equal(outcome(given(row.given), manage(Number(action))), expected);
        });
      }
    });
  }
});

describe('management: rejections before any state rule', () => {
  const cases: Array<{ name: string; state: WorkflowEvent[]; taskstatus: number; expect: RejectionKind }> = [
    { name: 'a document never registered: 404', state: [], taskstatus: 100, expect: 'notFound' },
    {
      name: 'taskstatus 109 is no management action: 400',
      state: REGISTRATION,
      taskstatus: 109,
      expect: 'invalid',
    },
    {
      name: 'taskstatus 2 is a response, not management: 400',
      state: REGISTRATION,
      taskstatus: 2,
      expect: 'invalid',
    },
    { name: 'taskstatus 112: 400', state: REGISTRATION, taskstatus: 112, expect: 'invalid' },
  ];
  for (const c of cases) it(c.name, () => rejects(c.expect, () => manage(c.taskstatus)(given(c.state))));

  it('a form without the phase: 100/105/106 answer 422', () => {
    const signOnly = [ev.registered({ sign: { stages: [{ participants: [DAVE] }] } })];
    assert.equal(outcome(given(signOnly), manage(100)), 'notApplicable');
    assert.equal(outcome(given(signOnly), manage(106)), 'notApplicable');
    assert.equal(outcome(given(signOnly), manage(105)), 'sign inProgress 1/1, open: dave');
  });
  it('a participant e-mail that names no account: 422, nothing starts', () => {
    const state = given(REGISTRATION);
    rejects('notApplicable', () =>
      decideManage({ taskstatus: 100, principal: AUTHOR_USER, ...inputs(), participants: {} }, state),
    );
  });
});

describe('management: the exact events', () => {
  it('100 from registration: the phase with its resolved stages, stage 1, a task per participant', () => {
    assert.deepEqual(decided(manage(100)(given(REGISTRATION))), [
      ev.phaseStarted('approval', 1, [[ALICE, BOB], [CAROL]], AT),
      ev.stageStarted(1, AT),
      ev.opened(nid(1), 'approval', 1, 1, ALICE, AT),
      ev.opened(nid(2), 'approval', 1, 1, BOB, AT),
    ]);
  });
  it('a participant named twice in a stage (e-mail and id) gets one task', () => {
    const twice = [
      ev.registered({ approval: { stages: [{ participants: ['alice@example.com', ALICE, BOB] }] } }),
    ];
    assert.deepEqual(decided(manage(100)(given(twice))), [
      ev.phaseStarted('approval', 1, [[ALICE, BOB]], AT),
      ev.stageStarted(1, AT),
      ev.opened(nid(1), 'approval', 1, 1, ALICE, AT),
      ev.opened(nid(2), 'approval', 1, 1, BOB, AT),
    ]);
  });
  it('a form with dueDays: the phase is due that many days after it started', () => {
    const due = [ev.registered({ ...MEMO, dueDays: 5 })];
    const [started] = decided(manage(105)(given(due)));
    assert.deepEqual(started, {
      type: 'PhaseStarted',
      data: { phase: 'sign', iteration: 1, stages: [[DAVE]], dueDate: '2026-03-07T10:00:00.000Z', at: AT },
    });
  });
  it('104 in registration starts the first phase the form has: sign when there is no approval', () => {
    const noApproval = [ev.registered({ sign: MEMO.sign, execution: MEMO.execution })];
    assert.equal(outcome(given(noApproval), manage(104)), 'sign inProgress 1/1, open: dave');
  });
  it('104 in registration of a form without workflow: 422', () => {
    assert.equal(outcome(given([ev.registered({})]), manage(104)), 'notApplicable');
  });
  it('104 restarts the phase: open tasks cancelled, iteration + 1, new respIds from stage 1', () => {
    assert.deepEqual(decided(manage(104)(given(APPROVAL_STAGE_2))), [
      ev.cancelled([rid(3)], 'restarted', AT),
      ev.phaseStarted('approval', 2, [[ALICE, BOB], [CAROL]], AT),
      ev.stageStarted(1, AT),
      ev.opened(nid(1), 'approval', 1, 2, ALICE, AT),
      ev.opened(nid(2), 'approval', 1, 2, BOB, AT),
    ]);
  });
  it('101 suspend, 102 resume', () => {
    assert.deepEqual(decided(manage(101)(given(SIGN))), [{ type: 'WorkflowSuspended', data: { at: AT } }]);
    assert.deepEqual(decided(manage(102)(given(SUSPENDED))), [{ type: 'WorkflowResumed', data: { at: AT } }]);
  });
  it('103 cancel: open tasks cancelled, then the workflow', () => {
    assert.deepEqual(decided(manage(103)(given(APPROVAL_STAGE_1))), [
      ev.cancelled([rid(1), rid(2)], 'cancelled', AT),
      ev.workflowCancelled(AT),
    ]);
  });
  it('107 and 108 move the document without tasks', () => {
    assert.deepEqual(decided(manage(107)(given(DECLINED))), [ev.toArchive(1, AT)]);
    assert.deepEqual(decided(manage(108)(given(ARCHIVE))), [ev.toRepository(1, AT)]);
  });
  it('110 block: open tasks cancelled, then blocked', () => {
    assert.deepEqual(decided(manage(110)(given(SIGN))), [
      ev.cancelled([rid(4)], 'blocked', AT),
      ev.blocked(AT),
    ]);
  });
  it('111 delete while running: open tasks cancelled, blocked, deleted', () => {
    assert.deepEqual(decided(manage(111)(given(SIGN))), [
      ev.cancelled([rid(4)], 'deleted', AT),
      ev.blocked(AT),
      ev.deleted(AT),
    ]);
  });
  it('111 delete when blocked already: only deleted', () => {
    assert.deepEqual(decided(manage(111)(given(BLOCKED))), [ev.deleted(AT)]);
  });
  it('111 delete of a draft: blocked, deleted', () => {
    assert.deepEqual(decided(manage(111)(given(REGISTRATION))), [ev.blocked(AT), ev.deleted(AT)]);
  });
});

describe('create-time actions: the same moves right after registration', () => {
  const cases: Array<{ taskstatus: number; expect: string }> = [
    { taskstatus: 100, expect: 'approval inProgress 1/1, open: alice bob' },
    { taskstatus: 104, expect: 'approval inProgress 1/1, open: alice bob' },
    { taskstatus: 105, expect: 'sign inProgress 1/1, open: dave' },
    { taskstatus: 106, expect: 'execution inProgress 1/1, open: erin' },
    { taskstatus: 107, expect: 'archive completed 0/1, open: none' },
    { taskstatus: 108, expect: 'repository completed 0/1, open: none' },
    { taskstatus: 101, expect: 'invalid' },
    { taskstatus: 102, expect: 'invalid' },
    { taskstatus: 103, expect: 'invalid' },
    { taskstatus: 110, expect: 'invalid' },
    { taskstatus: 111, expect: 'invalid' },
  ];
  for (const c of cases)
    it(`${c.taskstatus} → ${c.expect}`, () => {
      const act = (s: WorkflowState) => decideCreateAction({ taskstatus: c.taskstatus, ...inputs() }, s);
      assert.equal(outcome(given(REGISTRATION), act), c.expect);
    });
  it('a phase the form does not configure: 422 (the create answers 201 with X-Error)', () => {
    const act = (s: WorkflowState) => decideCreateAction({ taskstatus: 100, ...inputs() }, s);
    assert.equal(outcome(given([ev.registered({ execution: MEMO.execution })]), act), 'notApplicable');
  });
});

describe('management: access is checked before the state rules', () => {
  const other: ManagePrincipal = { subject: ERIN, roles: [], isServiceAccount: false };
  it('a user without a management role on another author’s document: 403, even where 422 would follow', () => {
    rejects('forbidden', () => manage(101, other)(given(REGISTRATION)));
    rejects('forbidden', () => manage(100, other)(given(REGISTRATION)));
  });
  it('svcAdminDocRW may manage, but not delete', () => {
    const admin: ManagePrincipal = { subject: ERIN, roles: ['svcAdminDocRW'], isServiceAccount: false };
    assert.equal(outcome(given(SIGN), manage(101, admin)), 'sign suspended 1/1, open: dave');
    rejects('forbidden', () => manage(111, admin)(given(SIGN)));
  });
  it('a deleted document stays 404 to everyone', () => {
    rejects('notFound', () => manage(111, other)(given(DELETED)));
  });
});
