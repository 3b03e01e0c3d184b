/**
 * Absences (docs/decisions.md, "Absences"): a task that opens while its participant is away — their
 * deputy's period [from, to) holds at the decision's `at` — goes to the deputy, on the participant's
 * behalf; before or after the period, or without one, it goes to the participant.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type DeputiesOf, isAbsent } from '@docflow/contracts';
import { foldWorkflow } from '@docflow/workflow-model';
import { decideAnswer, decideManage } from './businessLogic';
import {
  ALICE,
  APPROVAL_STAGE_1,
  AT,
  AUTHOR,
  BOB,
  CAROL,
  DAVE,
  decided,
  given,
  inputs,
  outcome,
  REGISTRATION,
  rejects,
  rid,
} from './test-fixtures';

const AWAY = { from: '2026-03-01T00:00:00.000Z', to: '2026-03-09T00:00:00.000Z' }; // AT is 2026-03-02
const author = { subject: AUTHOR, roles: [], isServiceAccount: false };
const startApproval = (standIns: DeputiesOf) =>
  decided(decideManage({ ...inputs(), standIns, taskstatus: 100, principal: author }, given(REGISTRATION)));
const opened = (events: ReturnType<typeof startApproval>) =>
  events.flatMap((e) => (e.type === 'TaskOpened' ? [e.data] : []));

describe('absences: whom a new task goes to', () => {
  it("bob is away: his task opens for his deputy dave, on bob's behalf; alice's is hers", () => {
    const tasks = opened(startApproval({ [BOB]: { id: DAVE, enabled: true, ...AWAY } }));
    assert.deepEqual(
      tasks.map((t) => [t.assignee, t.onBehalfOf]),
      [
        [inputs().participants['alice@example.com'], undefined],
        [DAVE, BOB],
      ],
    );
  });

  it('outside the period (before it, from `to` on), or a deputy without one: the task is bob\u2019s', () => {
    const periods = [
      { from: '2026-03-03T00:00:00.000Z', to: '2026-03-09T00:00:00.000Z' },
      { from: '2026-02-01T00:00:00.000Z', to: AT },
      {},
    ];
    for (const period of periods) {
      const tasks = opened(startApproval({ [BOB]: { id: DAVE, enabled: true, ...period } }));
      assert.deepEqual(tasks.at(-1)?.assignee, BOB, JSON.stringify(period));
      assert.equal(tasks.at(-1)?.onBehalfOf, undefined);
    }
  });

  it('the next stage opens for the deputy of a participant who is away by then', () => {
    const state = given(APPROVAL_STAGE_1, [
      {
        type: 'TaskAnswered',
        data: { respId: rid(1), taskstatus: 2, content: '', answeredBy: ALICE, at: AT },
      },
    ]);
    const events = decided(
      decideAnswer(
        {
          ...inputs(),
          standIns: { [CAROL]: { id: DAVE, enabled: false, ...AWAY } },
          respId: rid(2),
          taskstatus: 2,
          content: '',
          caller: BOB,
          deputiesOf: {},
        },
        state,
      ),
    );
    assert.deepEqual(
      opened(events).map((t) => [t.step, t.assignee, t.onBehalfOf]),
      [[2, DAVE, CAROL]],
    );
  });
});

describe('absences: answering the task', () => {
  const events = startApproval({ [BOB]: { id: DAVE, enabled: true, ...AWAY } });
  const state = foldWorkflow(events, given(REGISTRATION));
  const daves = opened(events).find((t) => t.assignee === DAVE)!.respId;
  const answer = (caller: string) => (s: typeof state) =>
    decideAnswer({ ...inputs(), respId: daves, taskstatus: 2, content: '', caller, deputiesOf: {} }, s);

  it("dave answers it, recorded as on bob's behalf; bob himself may not", () => {
    const answered = decided(answer(DAVE)(state)).find((e) => e.type === 'TaskAnswered');
    assert.equal(answered?.type === 'TaskAnswered' && answered.data.onBehalfOf, BOB);
    assert.equal(answered?.type === 'TaskAnswered' && answered.data.answeredBy, DAVE);
    rejects('forbidden', () => answer(BOB)(state));
    assert.equal(outcome(state, answer(DAVE)), 'approval inProgress 1/1, open: alice');
  });
});

describe('isAbsent', () => {
  it('holds in [from, to) only, and only with both', () => {
    const deputy = { id: DAVE, enabled: true, ...AWAY };
    assert.equal(isAbsent(deputy, AWAY.from), true);
    assert.equal(isAbsent(deputy, AWAY.to), false);
    assert.equal(isAbsent({ id: DAVE, enabled: true }, AT), false);
    assert.equal(isAbsent(undefined, AT), false);
  });
});
