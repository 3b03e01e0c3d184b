/** Stage deadlines, pure: ISO 8601 durations, the due time on the calendar and on working days, the reminder. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FormDefinition, parseDuration } from '@docflow/contracts';
import { stageDue } from './deadlines';

describe('durations', () => {
  const cases: [string, ReturnType<typeof parseDuration>][] = [
    ['P2D', { days: 2, ms: 0 }],
    ['PT4H', { days: 0, ms: 4 * 3_600_000 }],
    ['P1W', { days: 7, ms: 0 }],
    ['P1DT12H30M', { days: 1, ms: 12.5 * 3_600_000 }],
    ['PT90S', { days: 0, ms: 90_000 }],
    ['P', undefined],
    ['P1DT', undefined],
    ['P1M', undefined], // months have no fixed length
    ['P1Y', undefined],
    ['2D', undefined],
    ['P-1D', undefined],
    ['', undefined],
  ];
  for (const [text, parsed] of cases)
    it(`${JSON.stringify(text)} → ${JSON.stringify(parsed)}`, () =>
      assert.deepEqual(parseDuration(text), parsed));
});

describe('when a stage is due', () => {
  // Thursday 2026-03-05 10:00 UTC.
  const THURSDAY = '2026-03-05T10:00:00.000Z';
  it('calendar days count every day', () => {
    assert.deepEqual(stageDue({ within: 'P2D' }, THURSDAY), { dueAt: '2026-03-07T10:00:00.000Z' });
  });
  it('working days step over Saturday and Sunday', () => {
    assert.deepEqual(stageDue({ within: 'P2D', workingDays: true }, THURSDAY), {
      dueAt: '2026-03-09T10:00:00.000Z',
    });
  });
  it('a stage started on a Saturday with one working day is due Monday', () => {
    assert.deepEqual(stageDue({ within: 'P1D', workingDays: true }, '2026-03-07T08:00:00.000Z'), {
      dueAt: '2026-03-09T08:00:00.000Z',
    });
  });
  it('hours run on the clock, also with working days', () => {
    assert.deepEqual(stageDue({ within: 'PT20H', workingDays: true }, THURSDAY), {
      dueAt: '2026-03-06T06:00:00.000Z',
    });
  });
  it('the reminder goes out remindBefore the deadline, in working days backwards too', () => {
    assert.deepEqual(stageDue({ within: 'P2D', remindBefore: 'PT4H' }, THURSDAY), {
      dueAt: '2026-03-07T10:00:00.000Z',
      remindAt: '2026-03-07T06:00:00.000Z',
    });
    assert.deepEqual(stageDue({ within: 'P2D', workingDays: true, remindBefore: 'P1D' }, THURSDAY), {
      dueAt: '2026-03-09T10:00:00.000Z',
      remindAt: '2026-03-06T10:00:00.000Z',
    });
  });
  it('a reminder longer than the deadline goes out at once', () => {
    assert.deepEqual(stageDue({ within: 'PT1H', remindBefore: 'P1D' }, THURSDAY), {
      dueAt: '2026-03-05T11:00:00.000Z',
      remindAt: THURSDAY,
    });
  });
  it('no deadline, no due time', () => assert.deepEqual(stageDue(undefined, THURSDAY), {}));
});

describe('a form’s stage deadline', () => {
  const form = (deadline: unknown, phase = 'approval') =>
    FormDefinition.safeParse({
      name: 'memo',
      title: 'Memo',
      formsystype: 1,
      tags: {},
      workflow: { [phase]: { stages: [{ participants: ['a@example.com'], deadline }] } },
    });
  it('accepts each escalation with what it needs', () => {
    for (const action of ['notify', 'reassign', 'addParticipants'])
      assert.ok(form({ within: 'P2D', escalation: { action, contacts: ['b@example.com'] } }).success, action);
    assert.ok(form({ within: 'P2D', escalation: { action: 'autoAnswer', answer: 2 } }).success);
  });
  it('refuses a duration it cannot count, contacts missing, an answer the phase does not take', () => {
    assert.ok(!form({ within: 'P1M' }).success);
    assert.ok(!form({ within: 'P2D', remindBefore: 'soon' }).success);
    assert.ok(!form({ within: 'P2D', escalation: { action: 'reassign' } }).success);
    assert.ok(!form({ within: 'P2D', escalation: { action: 'autoAnswer' } }).success);
    assert.ok(!form({ within: 'P2D', escalation: { action: 'autoAnswer', answer: 8 } }).success);
    assert.ok(form({ within: 'P2D', escalation: { action: 'autoAnswer', answer: 8 } }, 'sign').success);
  });
});
