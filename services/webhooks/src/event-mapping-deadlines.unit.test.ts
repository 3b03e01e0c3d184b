/** Stage deadline facts → webhook events (issue 36): one per task, ids and times only, never a contact. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { mapDocumentEvent } from './event-mapping';
import { documentEnvelope, FIXTURE_AT, IN_APPROVAL } from './test-fixtures';

const BOSS = 'usr-3f2b8c1e-9d4a-4c7e-8b1f-2a6d5e7c9b02';
const [T1, T2] = ['65a1f0c2b3d4e5f6012345aa', '65a1f0c2b3d4e5f6012345bb'];
const DUE = '2026-03-04T10:00:00.000Z';
const facts = { step: 1, iteration: 1, respIds: [T1, T2] };

const mapped = (events: Array<{ type: string; data: Record<string, unknown> }>) =>
  mapDocumentEvent(
    documentEnvelope('WorkflowChanged', { sourceIds: [randomUUID()], events }, 5),
    IN_APPROVAL,
  )!.events.map((e) => ({ type: e.type, ...e.payload.data }));

describe('stage deadline facts → webhook events', () => {
  it('the reminder: task.due_soon per open task with when it is due', () => {
    const events = mapped([{ type: 'TasksDueSoon', data: { ...facts, dueAt: DUE, at: FIXTURE_AT } }]);
    assert.deepEqual(
      events.map((e) => [e.type, e.taskId, e.dueAt, e.step, e.iteration]),
      [
        ['task.due_soon', T1, DUE, 1, 1],
        ['task.due_soon', T2, DUE, 1, 1],
      ],
    );
  });

  it('the deadline and its escalation: task.overdue then task.escalated per task, the action named, no contact', () => {
    const events = mapped([
      { type: 'TasksOverdue', data: { ...facts, dueAt: DUE, at: FIXTURE_AT } },
      {
        type: 'TasksEscalated',
        data: { ...facts, action: 'reassign', to: [BOSS], reason: 'no answer', at: FIXTURE_AT },
      },
    ]);
    assert.deepEqual(
      events.map((e) => [e.type, e.taskId, e.escalation]),
      [
        ['task.overdue', T1, undefined],
        ['task.overdue', T2, undefined],
        ['task.escalated', T1, 'reassign'],
        ['task.escalated', T2, 'reassign'],
      ],
    );
    assert.ok(!JSON.stringify(events).includes(BOSS), 'the contacts stay out of webhooks');
  });
});
