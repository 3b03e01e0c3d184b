/**
 * Hand-overs → webhook events (issue 36): a person's reassignment and a reassigning escalation each
 * make task.reassigned per closed task, naming the tasks opened in its place (ids only, never a person),
 * before the task.opened of those.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { mapDocumentEvent } from './event-mapping';
import { documentEnvelope, FIXTURE_AT, IN_APPROVAL } from './test-fixtures';

const [BOB, DAVE, BOSS] = [
  'usr-3f2b8c1e-9d4a-4c7e-8b1f-2a6d5e7c9b01',
  'usr-3f2b8c1e-9d4a-4c7e-8b1f-2a6d5e7c9b02',
  'usr-3f2b8c1e-9d4a-4c7e-8b1f-2a6d5e7c9b03',
];
const [T1, T2, T3] = ['65a1f0c2b3d4e5f6012345aa', '65a1f0c2b3d4e5f6012345bb', '65a1f0c2b3d4e5f6012345cc'];
const DUE = '2026-03-04T10:00:00.000Z';
const opened = (respId: string, assignee: string) => ({
  type: 'TaskOpened',
  data: { respId, phase: 'approval', step: 1, iteration: 1, assignee, at: FIXTURE_AT },
});

const mapped = (events: Array<{ type: string; data: Record<string, unknown> }>) => {
  const result = mapDocumentEvent(
    documentEnvelope('WorkflowChanged', { sourceIds: [randomUUID()], events }, 5),
    IN_APPROVAL,
  )!;
  assert.ok(!JSON.stringify(result.events).includes('usr-'), 'no person in a webhook');
  return result.events.map((e) => ({ type: e.type, ...e.payload.data }));
};

describe('hand-overs → webhook events', () => {
  it('a person hands a task over: task.reassigned (closed task, the one opened instead), then task.opened', () => {
    const events = mapped([
      {
        type: 'TaskReassigned',
        data: { respId: T1, from: BOB, to: DAVE, reason: 'on holiday', at: FIXTURE_AT },
      },
      opened(T2, DAVE),
    ]);
    assert.deepEqual(
      events.map((e) => [e.type, e.taskId, e.newTaskIds, e.step, e.iteration]),
      [
        ['task.reassigned', T1, [T2], 1, 1],
        ['task.opened', T2, undefined, 1, 1],
      ],
    );
  });

  it('a reassigning escalation: task.reassigned per overdue task after task.escalated, naming every new task', () => {
    const facts = { step: 1, iteration: 1, respIds: [T1, T2] };
    const events = mapped([
      { type: 'TasksOverdue', data: { ...facts, dueAt: DUE, at: FIXTURE_AT } },
      {
        type: 'TasksEscalated',
        data: { ...facts, action: 'reassign', to: [BOSS], reason: 'no answer', at: FIXTURE_AT },
      },
      { type: 'TasksCancelled', data: { respIds: [T1, T2], reason: 'escalated', at: FIXTURE_AT } },
      opened(T3, BOSS),
    ]);
    assert.deepEqual(
      events.map((e) => [e.type, e.taskId, e.newTaskIds]),
      [
        ['task.overdue', T1, undefined],
        ['task.overdue', T2, undefined],
        ['task.escalated', T1, undefined],
        ['task.escalated', T2, undefined],
        ['task.reassigned', T1, [T3]],
        ['task.reassigned', T2, [T3]],
        ['task.opened', T3, undefined],
      ],
    );
  });

  it('an escalation that only notifies or adds participants hands nothing over', () => {
    for (const action of ['notify', 'addParticipants']) {
      const events = mapped([
        {
          type: 'TasksEscalated',
          data: { step: 1, iteration: 1, respIds: [T1], action, to: [BOSS], reason: 'why', at: FIXTURE_AT },
        },
        ...(action === 'addParticipants' ? [opened(T3, BOSS)] : []),
      ]);
      assert.ok(!events.some((e) => e.type === 'task.reassigned'), action);
    }
  });
});
