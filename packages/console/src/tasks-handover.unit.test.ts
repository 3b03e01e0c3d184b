/** The console's task lines of issue 36's facts: a task handed over, one opened for an absent participant. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HistoryEntry } from './web/model';
import { tasksOf } from './web/tasks';

const BOB = 'usr-00000000-0000-4000-8000-00000000000b';
const DAVE = 'usr-00000000-0000-4000-8000-00000000000d';
const at = '2026-11-26T10:00:00.000Z';
const opened = (respId: string, assignee: string, onBehalfOf?: string) => ({
  type: 'TaskOpened',
  data: {
    respId,
    phase: 'approval',
    step: 1,
    iteration: 1,
    assignee,
    ...(onBehalfOf ? { onBehalfOf } : {}),
    at,
  },
});
const entry = (...events: unknown[]) =>
  ({ type: 'WorkflowChanged', data: { events } }) as unknown as HistoryEntry;

describe('tasksOf: handed over and on behalf of', () => {
  it("bob's task handed to dave ends as handed over, with whom to; dave's is open", () => {
    const lines = tasksOf([
      entry(opened('a'.repeat(24), BOB)),
      entry(
        {
          type: 'TaskReassigned',
          data: { respId: 'a'.repeat(24), from: BOB, to: DAVE, reason: 'on holiday', at },
        },
        opened('b'.repeat(24), DAVE),
      ),
    ]);
    assert.deepEqual(
      lines.map((l) => [l.assignee, l.outcome, l.handedTo]),
      [
        [BOB, 'handed over: on holiday', DAVE],
        [DAVE, 'open', undefined],
      ],
    );
  });

  it('a task opened for an absent participant names them', () => {
    const [line] = tasksOf([entry(opened('c'.repeat(24), DAVE, BOB))]);
    assert.equal(line?.assignee, DAVE);
    assert.equal(line?.onBehalfOf, BOB);
  });
});
