/** The history in words of issue 36's facts: a stage closed by its quorum, a task handed over, a comment. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { namedIds, type SummaryEntry, summariseHistory } from './summary';

const BOB = 'usr-00000000-0000-4000-8000-00000000000b';
const DAVE = 'usr-00000000-0000-4000-8000-00000000000d';
const ADMIN = 'usr-00000000-0000-4000-8000-0000000000ad';
const PORTAL = 'usr-00000000-0000-4000-8000-0000000000ff';
const NAMES: Record<string, string> = {
  [BOB]: 'Bob Example',
  [DAVE]: 'Dave Example',
  [ADMIN]: 'Ada Admin',
  [PORTAL]: 'Portal',
};
const nameOf = (id: string) => NAMES[id] ?? id;
const at = '2026-11-26T10:00:00.000Z';
const respId = 'a'.repeat(24);

const wf = (actor: string, runAs: string | undefined, ...events: Array<[string, Record<string, unknown>]>) =>
  ({
    type: 'WorkflowChanged',
    data: {
      sourceIds: events.map((_, i) => `s${i}`),
      events: events.map(([type, data]) => ({ type, data: { ...data, at } })),
    },
    actor,
    ...(runAs ? { runAs } : {}),
    changes: [],
  }) as SummaryEntry;

const handedOver = (by: string, runAs?: string) =>
  wf(
    by,
    runAs,
    ['TaskReassigned', { respId, from: BOB, to: DAVE, reason: 'on holiday' }],
    ['TaskOpened', { respId: 'b'.repeat(24), phase: 'approval', step: 1, iteration: 1, assignee: DAVE }],
  );

describe('history in words: task facts of issue 36', () => {
  it('bob hands his own approval to dave, directly and through a portal', () => {
    assert.deepEqual(summariseHistory([handedOver(BOB), handedOver(PORTAL, BOB)], nameOf), [
      'Bob Example handed the approval to Dave Example: on holiday. Waiting for Dave Example',
      'Portal on behalf of Bob Example handed the approval to Dave Example: on holiday. Waiting for Dave Example',
    ]);
  });

  it("an administrator hands bob's approval to dave; both are named", () => {
    assert.deepEqual(summariseHistory([handedOver(ADMIN)], nameOf), [
      "Ada Admin handed Bob Example's approval to Dave Example: on holiday. Waiting for Dave Example",
    ]);
    assert.deepEqual(namedIds([handedOver(ADMIN)]).sort(), [ADMIN, BOB, DAVE].sort());
  });

  it('the tasks a quorum no longer needs are said to close', () => {
    const entry = wf(
      BOB,
      undefined,
      ['TaskAnswered', { respId, taskstatus: 2, content: '', answeredBy: BOB }],
      ['TasksCancelled', { respIds: ['b'.repeat(24), 'c'.repeat(24)], reason: 'quorum' }],
    );
    assert.deepEqual(summariseHistory([entry], nameOf), [
      'Bob Example approved. The stage reached its quorum: 2 open tasks closed',
    ]);
  });

  it('a comment is quoted, a long one cut at 200 characters', () => {
    const comment = (text: string) =>
      ({
        type: 'CommentAdded',
        data: { commentId: 'c'.repeat(24), author: BOB, text },
        actor: BOB,
        changes: [],
      }) as SummaryEntry;
    assert.deepEqual(summariseHistory([comment('see **p. 2**'), comment('x'.repeat(300))], nameOf), [
      "Bob Example commented: 'see **p. 2**'",
      `Bob Example commented: '${'x'.repeat(200)}…'`,
    ]);
  });
});
