/** What readers see: the document's workflow fields, each DocResponse rebuilt from events, the caller's task, the inbox. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type DeputiesOf, parseWorkflowEvent } from '@docflow/contracts';
import { inboxAssignees, openTaskFor } from './queries';
import {
  ALICE,
  APPROVAL_STAGE_1,
  APPROVAL_STAGE_2,
  BLOCKED,
  BOB,
  CAROL,
  DECLINED,
  DEPUTY,
  ev,
  given,
  OUTSIDER,
  REGISTRATION,
  REPOSITORY,
  rid,
  SIGN,
  SUSPENDED,
  T0,
} from './testing/histories';
import { isDeleted } from './workflow';

describe('the document’s workflow fields', () => {
  const cases = [
    {
      name: 'new document',
      history: REGISTRATION,
      expect: { phase: 'registration', step: 0, iteration: 0, status: 'draft' },
    },
    {
      name: 'approval stage 2',
      history: APPROVAL_STAGE_2,
      expect: { phase: 'approval', step: 2, iteration: 1, status: 'inProgress' },
    },
    { name: 'sign', history: SIGN, expect: { phase: 'sign', step: 1, iteration: 1, status: 'inProgress' } },
    {
      name: 'suspended',
      history: SUSPENDED,
      expect: { phase: 'approval', step: 1, iteration: 1, status: 'suspended' },
    },
    {
      name: 'declined',
      history: DECLINED,
      expect: { phase: 'approval', step: 1, iteration: 1, status: 'declined' },
    },
    {
      name: 'repository',
      history: REPOSITORY,
      expect: { phase: 'repository', step: 0, iteration: 1, status: 'completed' },
    },
    {
      name: 'blocked',
      history: BLOCKED,
      expect: { phase: 'approval', step: 1, iteration: 1, status: 'blocked' },
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const { phase, step, iteration, status } = given(c.history);
      assert.deepEqual({ phase, step, iteration, status }, c.expect);
    });
  it('isDeleted after DocumentDeleted only', () => {
    assert.equal(isDeleted(given(BLOCKED)), false);
    assert.equal(isDeleted(given(BLOCKED, [ev.deleted()])), true);
  });
});

describe('each DocResponse is rebuilt from the events', () => {
  it('open, then answered by a deputy, with both timestamps', () => {
    const opened = given(APPROVAL_STAGE_1).tasks[rid(1)];
    assert.deepEqual(opened, {
      respId: rid(1),
      phase: 'approval',
      step: 1,
      iteration: 1,
      assignee: ALICE,
      state: 'open',
      taskstatus: 0,
      content: '',
      openedAt: T0,
    });
    const answered = given(APPROVAL_STAGE_1, [
      {
        type: 'TaskAnswered',
        data: {
          respId: rid(1),
          taskstatus: 3,
          content: 'fix para 2',
          answeredBy: DEPUTY,
          onBehalfOf: ALICE,
          at: '2026-03-03T08:00:00.000Z',
        },
      },
    ]).tasks[rid(1)];
    assert.deepEqual(answered, {
      ...opened,
      state: 'answered',
      taskstatus: 3,
      content: 'fix para 2',
      answeredBy: DEPUTY,
      onBehalfOf: ALICE,
      closedAt: '2026-03-03T08:00:00.000Z',
    });
  });
  it('a cancelled task keeps taskstatus 0 and records when it closed', () => {
    const task = given(DECLINED).tasks[rid(2)];
    assert.equal(task?.state, 'cancelled');
    assert.equal(task?.taskstatus, 0);
    assert.equal(task?.closedAt, T0);
  });
  it('every event of the histories passes its schema', () => {
    for (const e of [...SIGN, ...DECLINED, ...BLOCKED, ...REPOSITORY, ev.deleted()])
      assert.deepEqual(parseWorkflowEvent(e.type, e.data), e);
  });
  it('an unknown event type is refused', () => {
    assert.throws(() => parseWorkflowEvent('TaskEaten', {}), /unknown workflow event type/);
  });
});

describe('openTaskFor (embed=docResponse)', () => {
  const deputies: DeputiesOf = {
    [ALICE]: { id: DEPUTY, enabled: true },
    [BOB]: { id: DEPUTY, enabled: true },
  };
  const cases = [
    { name: 'the assignee sees their own open task', history: APPROVAL_STAGE_1, user: BOB, expect: rid(2) },
    {
      name: 'an enabled deputy of two assignees sees the first opened',
      history: APPROVAL_STAGE_1,
      user: DEPUTY,
      expect: rid(1),
    },
    {
      name: 'an assignee who is also a deputy sees their own task first',
      history: APPROVAL_STAGE_1,
      user: BOB,
      deputiesOf: { [ALICE]: { id: BOB, enabled: true } },
      expect: rid(2),
    },
    {
      name: 'a disabled deputy sees nothing',
      history: APPROVAL_STAGE_1,
      user: DEPUTY,
      deputiesOf: { [ALICE]: { id: DEPUTY, enabled: false } },
      expect: undefined,
    },
    { name: 'an outsider sees nothing', history: APPROVAL_STAGE_1, user: OUTSIDER, expect: undefined },
    {
      name: 'an answered task is no longer shown',
      history: APPROVAL_STAGE_2,
      user: ALICE,
      expect: undefined,
    },
    { name: 'the next stage’s assignee sees theirs', history: APPROVAL_STAGE_2, user: CAROL, expect: rid(3) },
    { name: 'while suspended the task stays open', history: SUSPENDED, user: ALICE, expect: rid(1) },
    { name: 'a blocked document has no open task', history: BLOCKED, user: ALICE, expect: undefined },
  ];
  for (const c of cases)
    it(c.name, () => {
      assert.equal(openTaskFor(given(c.history), c.user, c.deputiesOf ?? deputies)?.respId, c.expect);
    });
});

describe('inboxAssignees', () => {
  const cases = [
    { name: 'registration: nobody', history: REGISTRATION, expect: [] },
    { name: 'approval stage 1: alice and bob', history: APPROVAL_STAGE_1, expect: [ALICE, BOB] },
    { name: 'approval stage 2: carol', history: APPROVAL_STAGE_2, expect: [CAROL] },
    { name: 'declined: nobody', history: DECLINED, expect: [] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(inboxAssignees(given(c.history)), c.expect));
});
