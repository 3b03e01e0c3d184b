/** Stage deadline facts in words (issue 36): the reminder, the deadline, each escalation with whom and why. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { namedIds, type SummaryEntry, summariseHistory } from './summary';

const BOB = 'usr-00000000-0000-4000-8000-00000000000b';
const CAROL = 'usr-00000000-0000-4000-8000-00000000000c';
const DAVE = 'usr-00000000-0000-4000-8000-00000000000d';
const NAMES: Record<string, string> = {
  [BOB]: 'Bob Example',
  [CAROL]: 'Carol Example',
  [DAVE]: 'Dave Example',
};
const nameOf = (id: string) => NAMES[id] ?? id;
const at = '2026-11-26T10:00:00.000Z';
const DUE = '2026-11-28T10:00:00.000Z';
const [T1, T2] = ['a'.repeat(24), 'b'.repeat(24)];
const facts = { step: 1, iteration: 1, respIds: [T1] };

/** One entry the scheduler recorded: no actor (docflow itself). */
const scheduled = (...events: Array<[string, Record<string, unknown>]>): SummaryEntry => ({
  type: 'WorkflowChanged',
  data: {
    sourceIds: events.map((_, i) => `s${i}`),
    events: events.map(([type, data]) => ({ type, data: { ...data, at } })),
  },
  changes: [],
});
const escalated = (action: string, to: string[]): [string, Record<string, unknown>] => [
  'TasksEscalated',
  { ...facts, action, to, reason: `no answer by the deadline ${DUE}: why` },
];

describe('stage deadlines in the history', () => {
  const cases: Array<[string, SummaryEntry, string]> = [
    [
      'the reminder',
      scheduled(['TasksDueSoon', { ...facts, respIds: [T1, T2], dueAt: DUE }]),
      `Reminder: 2 open tasks of step 1 due by ${DUE}`,
    ],
    [
      'the deadline and notify',
      scheduled(['TasksOverdue', { ...facts, dueAt: DUE }], escalated('notify', [CAROL, DAVE])),
      `1 open task of step 1 overdue since ${DUE}. 1 open task escalated to Carol Example and Dave Example (no answer by the deadline ${DUE}: why)`,
    ],
    [
      'reassign, with its effect',
      scheduled(
        escalated('reassign', [CAROL]),
        ['TasksCancelled', { respIds: [T1], reason: 'escalated' }],
        ['TaskOpened', { respId: T2, phase: 'approval', step: 1, iteration: 1, assignee: CAROL }],
      ),
      `1 open task reassigned to Carol Example (no answer by the deadline ${DUE}: why). 1 open task cancelled (escalated). Waiting for Carol Example`,
    ],
    [
      'addParticipants',
      scheduled(escalated('addParticipants', [CAROL])),
      `1 open task escalated by adding Carol Example (no answer by the deadline ${DUE}: why)`,
    ],
    [
      'autoAnswer: the assignee’s task answered automatically, not by a person',
      scheduled(escalated('autoAnswer', []), [
        'TaskAnswered',
        { respId: T1, taskstatus: 2, content: 'answered automatically', answeredBy: BOB, automatic: true },
      ]),
      `1 open task escalated (no answer by the deadline ${DUE}: why). Bob Example's task was approved automatically`,
    ],
  ];
  for (const [name, entry, expected] of cases)
    it(name, () => assert.deepEqual(summariseHistory([entry], nameOf), [expected]));

  it('the contacts are names to look up', () => {
    assert.deepEqual(namedIds([scheduled(escalated('notify', [CAROL, DAVE]))]), [CAROL, DAVE]);
  });
});
