/**
 * Stage deadlines as the scheduler decides them, pure: given a stage with a deadline, when the clock
 * reaches the reminder or the deadline, then these events — once; and each escalation the form can choose.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Escalation, WorkflowConfig, WorkflowEvent } from '@docflow/contracts';
import { foldWorkflow, type WorkflowState } from '@docflow/workflow-model';
import type { ManagePrincipal } from './access';
import { decideAnswer, decideManage } from './businessLogic';
import { decideTimers, nextTimerAt } from './escalation';
import { AT, AUTHOR, BOB, CAROL, DAVE, decided, ERIN, ev, given, inputs, summary } from './test-fixtures';

const AUTHOR_USER: ManagePrincipal = { subject: AUTHOR, roles: [], isServiceAccount: false };
const HOUR = 3_600_000;
const after = (ms: number) => new Date(Date.parse(AT) + ms).toISOString();
const DUE = after(48 * HOUR);

/** Approval: stage 1 (alice by e-mail, bob) due in two days, reminded 4 hours before; stage 2 carol. */
function form(escalation?: Escalation): WorkflowConfig {
  return {
    approval: {
      stages: [
        {
          participants: ['alice@example.com', BOB],
          deadline: { within: 'P2D', remindBefore: 'PT4H', ...(escalation ? { escalation } : {}) },
        },
        { participants: [CAROL] },
      ],
    },
  };
}
const CONTACTS = { 'esc@example.com': DAVE, 'esc2@example.com': ERIN };

/** The form's approval started at AT, its contacts resolved. */
function started(escalation?: Escalation): WorkflowState {
  const state = given([ev.registered(form(escalation))]);
  const c = { ...inputs(), participants: { ...inputs().participants, ...CONTACTS } };
  return foldWorkflow(decided(decideManage({ taskstatus: 100, principal: AUTHOR_USER, ...c }, state)), state);
}

/** What the clock brings about at `at`, checked against the contract; its new respIds start at e0…. */
function tick(state: WorkflowState, at: string): WorkflowEvent[] {
  let n = 0;
  const newId = () => `e${(++n).toString(16).padStart(23, '0')}`;
  return decided(decideTimers(state, { ...inputs(), newId, at }));
}
const types = (events: WorkflowEvent[]) => events.map((e) => e.type);

describe('stage deadline: reminder and deadline', () => {
  it('the stage records when it is due and when to remind, and whom to escalate to', () => {
    const state = started({ action: 'notify', contacts: ['esc@example.com'] });
    assert.deepEqual(state.timer, {
      step: 1,
      dueAt: DUE,
      remindAt: after(44 * HOUR),
      escalateTo: [DAVE],
      reminded: false,
      overdue: false,
    });
    assert.equal(nextTimerAt(state), Date.parse(after(44 * HOUR)));
  });

  it('nothing before the reminder; at it TasksDueSoon for the open tasks, once', () => {
    const state = started();
    assert.deepEqual(tick(state, after(44 * HOUR - 1)), []);
    const reminded = tick(state, after(44 * HOUR));
    assert.deepEqual(types(reminded), ['TasksDueSoon']);
    assert.deepEqual(reminded[0]!.data, {
      step: 1,
      iteration: 1,
      respIds: Object.keys(state.tasks),
      dueAt: DUE,
      at: after(44 * HOUR),
    });
    const next = foldWorkflow(reminded, state);
    assert.deepEqual(tick(next, after(45 * HOUR)), [], 'reminded once');
    assert.equal(nextTimerAt(next), Date.parse(DUE));
  });

  it('at the deadline without escalation: TasksOverdue, once, and no timer left', () => {
    const state = started();
    const overdue = tick(state, DUE);
    assert.deepEqual(types(overdue), ['TasksOverdue']);
    const next = foldWorkflow(overdue, state);
    assert.deepEqual(tick(next, after(100 * HOUR)), []);
    assert.equal(nextTimerAt(next), undefined);
  });

  it('an answered stage, a suspended workflow, a later stage: nothing fires for the old deadline', () => {
    const state = started();
    const [alice, bob] = Object.keys(state.tasks);
    const answer = (s: WorkflowState, respId: string, caller: string) =>
      foldWorkflow(
        decideAnswer({ ...inputs(), respId, taskstatus: 2, content: '', caller, deputiesOf: {} }, s),
        s,
      );
    const stage2 = answer(answer(state, alice!, state.tasks[alice!]!.assignee), bob!, BOB);
    assert.equal(summary(stage2), 'approval inProgress 2/1, open: carol');
    assert.deepEqual(tick(stage2, after(100 * HOUR)), [], 'stage 2 has no deadline');
    const suspended = foldWorkflow([ev.suspended()], state);
    assert.deepEqual(tick(suspended, after(100 * HOUR)), []);
    assert.equal(nextTimerAt(suspended), undefined);
  });
});

describe('stage deadline: each escalation', () => {
  const escalated = (events: WorkflowEvent[]) =>
    events.find((e): e is Extract<WorkflowEvent, { type: 'TasksEscalated' }> => e.type === 'TasksEscalated')!;

  it('notify: TasksEscalated to the contacts with the reason; the tasks stay', () => {
    const state = started({ action: 'notify', contacts: ['esc@example.com', 'esc2@example.com'] });
    const events = tick(state, DUE);
    assert.deepEqual(types(events), ['TasksOverdue', 'TasksEscalated']);
    const e = escalated(events).data;
    assert.deepEqual([e.action, e.to, e.respIds], ['notify', [DAVE, ERIN], Object.keys(state.tasks)]);
    assert.match(e.reason, /no answer by the deadline .*: the escalation contacts are told/);
    assert.equal(summary(foldWorkflow(events, state)), 'approval inProgress 1/1, open: alice bob');
  });

  it('reassign: the open tasks close (escalated) and each contact gets one', () => {
    const state = started({ action: 'reassign', contacts: ['esc@example.com'] });
    const events = tick(state, DUE);
    assert.deepEqual(types(events), ['TasksOverdue', 'TasksEscalated', 'TasksCancelled', 'TaskOpened']);
    assert.equal(events[2]!.type === 'TasksCancelled' && events[2]!.data.reason, 'escalated');
    const next = foldWorkflow(events, state);
    assert.equal(summary(next), 'approval inProgress 1/1, open: dave');
    assert.deepEqual(tick(next, after(200 * HOUR)), [], 'escalated once');
  });

  it('addParticipants: each contact gets a task beside the open ones', () => {
    const state = started({ action: 'addParticipants', contacts: ['esc@example.com', 'esc2@example.com'] });
    const events = tick(state, DUE);
    assert.deepEqual(types(events), ['TasksOverdue', 'TasksEscalated', 'TaskOpened', 'TaskOpened']);
    assert.equal(summary(foldWorkflow(events, state)), 'approval inProgress 1/1, open: alice bob dave erin');
  });

  it('autoAnswer approve: every open task approved automatically, the next stage starts', () => {
    const state = started({ action: 'autoAnswer', answer: 2 });
    const events = tick(state, DUE);
    assert.deepEqual(types(events), [
      'TasksOverdue',
      'TasksEscalated',
      'TaskAnswered',
      'TaskAnswered',
      'StageStarted',
      'TaskOpened',
    ]);
    assert.deepEqual(escalated(events).data.to, []);
    for (const e of events.filter((x) => x.type === 'TaskAnswered'))
      assert.ok(e.type === 'TaskAnswered' && e.data.automatic && e.data.taskstatus === 2);
    assert.equal(summary(foldWorkflow(events, state)), 'approval inProgress 2/1, open: carol');
  });

  it('autoAnswer decline: the first answer declines the phase and cancels the rest', () => {
    const state = started({ action: 'autoAnswer', answer: 4 });
    const events = tick(state, DUE);
    assert.deepEqual(types(events), [
      'TasksOverdue',
      'TasksEscalated',
      'TaskAnswered',
      'TasksCancelled',
      'PhaseDeclined',
    ]);
    assert.equal(summary(foldWorkflow(events, state)), 'approval declined 1/1, open: none');
  });
});
