/**
 * The console's task lines of issue 36's deadlines (due date from the stage's deadline, reminder,
 * overdue, escalation, an automatic answer). Who is offered Reassign is the server's (`embed=actions`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HistoryEntry } from './web/model';
import { tasksOf } from './web/tasks';

const BOB = 'usr-00000000-0000-4000-8000-00000000000b';
const CAROL = 'usr-00000000-0000-4000-8000-00000000000c';
const DAVE = 'usr-00000000-0000-4000-8000-00000000000d';
const A = 'a'.repeat(24);
const B = 'b'.repeat(24);
const C = 'c'.repeat(24);
const at = '2026-11-26T10:00:00.000Z';
const due = '2026-11-28T10:00:00.000Z';
const phaseDue = '2026-12-01T10:00:00.000Z';
const entry = (...events: unknown[]) =>
  ({ type: 'WorkflowChanged', data: { events } }) as unknown as HistoryEntry;
const opened = (respId: string, assignee: string, step = 1) => ({
  type: 'TaskOpened',
  data: { respId, phase: 'approval', step, iteration: 1, assignee, at },
});
const started = entry(
  {
    type: 'PhaseStarted',
    data: { phase: 'approval', iteration: 1, stages: [[BOB], [DAVE]], dueDate: phaseDue, at },
  },
  { type: 'StageStarted', data: { step: 1, dueAt: due, remindAt: at, escalateTo: [CAROL], at } },
  opened(A, BOB),
);

describe('tasksOf: stage deadlines', () => {
  it("a task is due by its stage's deadline; reminded, overdue and escalated as the facts say", () => {
    const lines = tasksOf([
      started,
      entry({ type: 'TasksDueSoon', data: { step: 1, iteration: 1, respIds: [A], dueAt: due, at } }),
      entry(
        { type: 'TasksOverdue', data: { step: 1, iteration: 1, respIds: [A], dueAt: due, at: due } },
        {
          type: 'TasksEscalated',
          data: {
            step: 1,
            iteration: 1,
            respIds: [A],
            action: 'reassign',
            to: [CAROL],
            reason: 'late',
            at: due,
          },
        },
        { type: 'TasksCancelled', data: { respIds: [A], reason: 'escalated', at: due } },
        opened(B, CAROL),
      ),
    ]);
    assert.deepEqual(
      lines.map((l) => [l.assignee, l.due, l.remindedAt, l.overdue, l.escalation, l.outcome]),
      [
        [BOB, due, at, true, { words: 'reassigned to', to: [CAROL] }, 'cancelled (escalated)'],
        [CAROL, due, undefined, undefined, undefined, 'open'],
      ],
    );
  });

  it("a stage with no deadline of its own is due by the phase's due date; an automatic answer says so", () => {
    const lines = tasksOf([
      started,
      entry(
        {
          type: 'TaskAnswered',
          data: { respId: A, taskstatus: 2, content: '', answeredBy: BOB, automatic: true, at },
        },
        { type: 'StageStarted', data: { step: 2, at } },
        opened(C, DAVE, 2),
      ),
    ]);
    assert.deepEqual(
      lines.map((l) => [l.outcome, l.due]),
      [
        ['approved automatically', due],
        ['open', phaseDue],
      ],
    );
  });
});
