/**
 * What a caller may do now (allowedActions, `embed=actions`): the commands decideCommand would accept,
 * by caller and state — the author, a participant, a deputy, an outsider holding management roles, and
 * a service account acting for itself.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Role } from '@docflow/contracts';
import { allowedActions, type CommandContext, type RegisterWorkflow } from './businessLogic';
import {
  APPROVAL_STAGE_1,
  APPROVAL_STAGE_2,
  AUTHOR,
  BLOCKED,
  BOB,
  CAROL,
  DAVE,
  DEPUTY,
  DOC,
  given,
  inputs,
  MEMO,
  OUTSIDER,
  REGISTRATION,
  rid,
  SIGN,
  SUSPENDED,
  T0,
} from './test-fixtures';

const registration: RegisterWorkflow = { docId: DOC, form: 'memo', author: AUTHOR, workflow: MEMO, at: T0 };

function as(subject: string, roles: Role[] = [], extra: Partial<CommandContext> = {}): CommandContext {
  return { ...inputs(), principal: { subject, roles, isServiceAccount: false }, deputiesOf: {}, ...extra };
}

describe('allowedActions', () => {
  it('a registered draft: the author may start, restart, file, block or delete it; nobody answers', () => {
    assert.deepEqual(allowedActions(registration, as(AUTHOR), given(REGISTRATION)), {
      manage: [100, 104, 105, 106, 107, 108, 110, 111],
      answer: null,
      reassign: [],
    });
  });

  it('approval stage 1: the author suspends, cancels, restarts, blocks or deletes', () => {
    assert.deepEqual(
      allowedActions(registration, as(AUTHOR), given(APPROVAL_STAGE_1)).manage,
      [101, 103, 104, 110, 111],
    );
  });

  it('approval stage 1: bob answers his task with what an approval takes, and manages nothing', () => {
    assert.deepEqual(allowedActions(registration, as(BOB), given(APPROVAL_STAGE_1)), {
      manage: [],
      answer: { respId: rid(2), taskstatus: [2, 3, 4] },
      reassign: [rid(1), rid(2)],
    });
  });

  it('hand-overs, by the rule the reassign command checks: open tasks, to those the command lets hand them over', () => {
    const reassign = (ctx: CommandContext, ...history: Parameters<typeof given>) =>
      allowedActions(registration, ctx, given(...history)).reassign;
    // the author, a participant of the stage, svcAdminDocRW: both open tasks of stage 1
    for (const ctx of [as(AUTHOR), as(BOB), as(OUTSIDER, ['svcAdminDocRW'])])
      assert.deepEqual(reassign(ctx, APPROVAL_STAGE_1), [rid(1), rid(2)]);
    // stage 2: carol's task; alice and bob took part in stage 1 only
    assert.deepEqual(reassign(as(CAROL), APPROVAL_STAGE_2), [rid(3)]);
    assert.deepEqual(reassign(as(BOB), APPROVAL_STAGE_2), []);
    assert.deepEqual(reassign(as(OUTSIDER), APPROVAL_STAGE_1), []);
    assert.deepEqual(reassign(as(AUTHOR), BLOCKED), []);
    assert.deepEqual(reassign(as(AUTHOR), REGISTRATION), []);
  });

  it("bob's enabled deputy answers bob's task; a disabled one does not", () => {
    const enabled = as(DEPUTY, [], { deputiesOf: { [BOB]: { id: DEPUTY, enabled: true } } });
    assert.deepEqual(allowedActions(registration, enabled, given(APPROVAL_STAGE_1)).answer, {
      respId: rid(2),
      taskstatus: [2, 3, 4],
    });
    const disabled = as(DEPUTY, [], { deputiesOf: { [BOB]: { id: DEPUTY, enabled: false } } });
    assert.equal(allowedActions(registration, disabled, given(APPROVAL_STAGE_1)).answer, null);
  });

  it('a sign task takes sign or decline; a suspended workflow takes no answer, and resume is offered', () => {
    const dave = allowedActions(registration, as(DAVE), given(SIGN));
    assert.deepEqual(dave.answer?.taskstatus, [4, 8]);
    const suspended = allowedActions(registration, as(BOB), given(SUSPENDED));
    assert.deepEqual(suspended.answer, { respId: rid(2), taskstatus: [] });
    assert.ok(allowedActions(registration, as(AUTHOR), given(SUSPENDED)).manage.includes(102));
  });

  it('an outsider: nothing without roles; svcAdminDocRW manages but does not delete; a blocked document only deletes', () => {
    assert.deepEqual(allowedActions(registration, as(OUTSIDER), given(APPROVAL_STAGE_1)).manage, []);
    assert.deepEqual(
      allowedActions(registration, as(OUTSIDER, ['svcAdminDocRW']), given(APPROVAL_STAGE_1)).manage,
      [101, 103, 104, 110],
    );
    assert.deepEqual(
      allowedActions(registration, as(OUTSIDER, ['svcAdminDocRWD']), given(BLOCKED)).manage,
      [111],
    );
  });

  it('a service account acting for itself needs svcAdminDocsRW beside the management role', () => {
    const alone: CommandContext = {
      ...as(OUTSIDER, ['svcAdminDocRWD']),
      principal: { subject: OUTSIDER, roles: ['svcAdminDocRWD'], isServiceAccount: true },
    };
    assert.deepEqual(allowedActions(registration, alone, given(APPROVAL_STAGE_1)).manage, []);
    alone.principal = { ...alone.principal, roles: ['svcAdminDocRWD', 'svcAdminDocsRW'] };
    assert.ok(allowedActions(registration, alone, given(APPROVAL_STAGE_1)).manage.includes(111));
  });
});
