import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lineOf } from './web/json-lines';
import {
  answersFor,
  byUrgency,
  type Doc,
  type HistoryEntry,
  isOverdue,
  managementActions,
} from './web/model';
import { tasksOf } from './web/tasks';

const doc = (datedue: string, datecreated = '2026-01-01T00:00:00Z') => ({ datedue, datecreated }) as Doc;

describe('console logic', () => {
  it('the inbox order: overdue first, then by due date, documents without one last', () => {
    const now = Date.parse('2026-06-01T00:00:00Z');
    const docs = [
      doc(''),
      doc('2026-07-01T00:00:00Z'),
      doc('2026-05-01T00:00:00Z'),
      doc('2026-06-15T00:00:00Z'),
    ];
    const sorted = [...docs].sort(byUrgency).map((d) => d.datedue);
    assert.deepEqual(sorted, ['2026-05-01T00:00:00Z', '2026-06-15T00:00:00Z', '2026-07-01T00:00:00Z', '']);
    assert.deepEqual(
      sorted.map((d) => isOverdue(d, now)),
      [true, false, false, false],
    );
  });

  it('the answers a task offers follow its phase (the codes of the contract)', () => {
    assert.deepEqual(
      answersFor(1).map((a) => a.taskstatus),
      [2, 3, 4],
    );
    assert.deepEqual(
      answersFor(2).map((a) => [a.taskstatus, a.edits]),
      [
        [8, false],
        [8, true],
        [4, false],
      ],
    );
    assert.deepEqual(
      answersFor(3).map((a) => a.taskstatus),
      [5],
    );
    assert.deepEqual(answersFor(4), []);
  });

  it('management moves: those the server allows, named and in the console\u2019s order', () => {
    assert.deepEqual(
      managementActions([111, 101, 103]).map((a) => [a.taskstatus, a.label]),
      [
        [101, 'Suspend'],
        [103, 'Cancel workflow'],
        [111, 'Delete'],
      ],
    );
    assert.deepEqual(managementActions([]), [], 'nothing allowed: no button');
  });

  it('the answers offered are those the server takes from the caller now', () => {
    assert.deepEqual(
      answersFor(1, [2, 4]).map((a) => a.taskstatus),
      [2, 4],
    );
    assert.deepEqual(answersFor(1, []), []);
  });

  it('a validation issue points at the line of its member', () => {
    const text = JSON.stringify({ name: 'x', workflow: { approval: { stages: [] }, dueDays: -1 } }, null, 2);
    assert.equal(text.split('\n')[lineOf(text, 'body.workflow.dueDays')! - 1]?.trim(), '"dueDays": -1');
    assert.equal(text.split('\n')[lineOf(text, '/workflow/approval/stages')! - 1]?.trim(), '"stages": []');
    assert.equal(lineOf(text, 'body.nosuch'), undefined);
  });
});

describe('tasks from the history', () => {
  const entry = (rev: number, events: unknown[], type = 'WorkflowChanged'): HistoryEntry => ({
    rev,
    type,
    time: '',
    data: { events },
    changes: [],
    hash: null,
    prevHash: null,
    summary: '',
  });
  const opened = (respId: string, assignee: string, step = 1) => ({
    type: 'TaskOpened',
    data: { respId, phase: 'approval', step, iteration: 1, assignee, at: 't1' },
  });

  it('each task with how it ended: answered, cancelled, or still open', () => {
    const tasks = tasksOf([
      entry(1, [], 'DocumentCreated'),
      entry(2, [opened('a', 'usr-bob')]),
      entry(3, [
        {
          type: 'TaskAnswered',
          data: { respId: 'a', taskstatus: 4, content: 'too dear', answeredBy: 'usr-bob', at: 't2' },
        },
        opened('b', 'usr-carol', 2),
        opened('c', 'usr-dave', 2),
      ]),
      entry(4, [{ type: 'TasksCancelled', data: { respIds: ['b'], reason: 'restarted', at: 't3' } }]),
    ]);
    assert.deepEqual(
      tasks.map((t) => [t.respId, t.assignee, t.step, t.outcome, t.comment]),
      [
        ['a', 'usr-bob', 1, 'declined', 'too dear'],
        ['b', 'usr-carol', 2, 'cancelled (restarted)', ''],
        ['c', 'usr-dave', 2, 'open', ''],
      ],
    );
  });
});
