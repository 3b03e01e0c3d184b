/**
 * Reassignment (docs/decisions.md, "Reassignment"): who may hand an open task to whom, and what it
 * records — the old task closes (TaskReassigned), a task for the new person opens in the same stage.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { foldWorkflow, type WorkflowState } from '@docflow/workflow-model';
import type { ManagePrincipal } from './access';
import { decideAnswer, decideCommand } from './businessLogic';
import { decideReassign } from './reassign';
import {
  ALICE,
  APPROVAL_STAGE_1,
  AT,
  AUTHOR,
  BOB,
  CAROL,
  DAVE,
  DECLINED,
  DELETED,
  decided,
  given,
  inputs,
  MEMO,
  nid,
  OUTSIDER,
  outcome,
  rejects,
  rid,
} from './test-fixtures';

const person = (subject: string, roles: string[] = []): ManagePrincipal => ({
  subject,
  roles,
  isServiceAccount: false,
});

const reassign =
  (respId: string, by: ManagePrincipal, to: string | null = DAVE, toRef = 'dave@example.com') =>
  (state: WorkflowState) =>
    decideReassign(
      { respId, to: to ?? undefined, toRef, reason: 'on holiday', principal: by, ...inputs() },
      state,
    );

describe('reassignment: what it records', () => {
  it("bob hands his approval to dave: bob's task closes, dave's opens in the same stage", () => {
    const events = decided(reassign(rid(2), person(BOB))(given(APPROVAL_STAGE_1)));
    assert.deepEqual(events, [
      { type: 'TaskReassigned', data: { respId: rid(2), from: BOB, to: DAVE, reason: 'on holiday', at: AT } },
      {
        type: 'TaskOpened',
        data: { respId: nid(1), phase: 'approval', step: 1, iteration: 1, assignee: DAVE, at: AT },
      },
    ]);
    const after = given(APPROVAL_STAGE_1, events);
    assert.equal(after.tasks[rid(2)]?.state, 'cancelled');
    assert.equal(after.tasks[rid(2)]?.reassignedTo, DAVE);
    assert.equal(
      outcome(given(APPROVAL_STAGE_1), reassign(rid(2), person(BOB))),
      'approval inProgress 1/1, open: alice dave',
    );
  });

  it('the new task counts in the stage: once alice and dave approved, stage 2 starts; bob can no longer answer', () => {
    const answer = (respId: string, caller: string) => (s: WorkflowState) =>
      decideAnswer({ respId, taskstatus: 2, content: '', caller, deputiesOf: {}, ...inputs() }, s);
    const handed = foldWorkflow(
      reassign(rid(2), person(BOB))(given(APPROVAL_STAGE_1)),
      given(APPROVAL_STAGE_1),
    );
    rejects('notApplicable', () => answer(rid(2), BOB)(handed));
    const aliceApproved = foldWorkflow(answer(rid(1), ALICE)(handed), handed);
    assert.equal(outcome(aliceApproved, answer(nid(1), DAVE)), 'approval inProgress 2/1, open: carol');
  });
});

describe('reassignment: who may, and to whom', () => {
  const stage1 = given(APPROVAL_STAGE_1);

  it("a participant of the stage may hand over another participant's task; the author and svcAdminDocRW too", () => {
    for (const by of [person(ALICE), person(AUTHOR), person(OUTSIDER, ['svcAdminDocRW'])])
      assert.equal(outcome(stage1, reassign(rid(2), by)), 'approval inProgress 1/1, open: alice dave');
  });

  it('anyone else is forbidden (a later stage\u2019s participant, a role-less outsider)', () => {
    rejects('forbidden', () => reassign(rid(2), person(CAROL))(stage1));
    rejects('forbidden', () => reassign(rid(2), person(OUTSIDER))(stage1));
  });

  it('an unknown person is notApplicable (422); so is the assignee themselves or someone with a task of the stage', () => {
    rejects('notApplicable', () => reassign(rid(2), person(BOB), null, 'nobody@example.com')(stage1));
    rejects('notApplicable', () => reassign(rid(2), person(ALICE), BOB)(stage1));
    rejects('notApplicable', () => reassign(rid(2), person(BOB), ALICE)(stage1));
  });

  it('a closed task, an unknown task and a deleted document', () => {
    rejects('notApplicable', () => reassign(rid(2), person(AUTHOR))(given(DECLINED)));
    rejects('notFound', () => reassign(rid(9), person(AUTHOR))(stage1));
    rejects('notFound', () => reassign(rid(2), person(AUTHOR))(given(DELETED)));
  });

  it('through decideCommand, the person is resolved from the context (unknown: 422)', () => {
    const registration = {
      docId: 'd0c000000000000000000001',
      form: 'memo',
      author: AUTHOR,
      workflow: MEMO,
      at: AT,
    };
    const ctx = { ...inputs(), principal: person(BOB), deputiesOf: {} };
    const command = {
      kind: 'reassign' as const,
      respId: rid(2),
      to: 'dave@example.com',
      reason: 'on holiday',
    };
    rejects('notApplicable', () => decideCommand(registration, command, ctx, stage1));
    const resolved = { ...ctx, participants: { ...ctx.participants, 'dave@example.com': DAVE } };
    assert.equal(decideCommand(registration, command, resolved, stage1)[0]?.type, 'TaskReassigned');
  });
});
