/**
 * A refused workflow command is told in words: the action it refused ("approval could not start: …"),
 * each code it names with its name ("101 (suspend)"), each status as words ("in progress"), never a
 * bare code or an internal name.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ANSWER_TASK_STATUSES,
  MANAGE_TASK_STATUSES,
  Rejection,
  TASK_STATUS_NAMES,
  type WorkflowEvent,
} from '@docflow/contracts';
import type { WorkflowState } from '@docflow/workflow-model';
import type { ManagePrincipal } from './access';
import { decideAnswer, decideCreateAction, decideManage } from './businessLogic';
import {
  ALICE,
  APPROVAL_STAGE_1,
  ARCHIVE,
  AUTHOR,
  BLOCKED,
  CANCELLED,
  DECLINED,
  EXECUTION,
  given,
  inputs,
  OUTSIDER,
  REGISTRATION,
  REPOSITORY,
  rid,
  SIGN,
  SUSPENDED,
} from './test-fixtures';

const AUTHOR_USER: ManagePrincipal = { subject: AUTHOR, roles: [], isServiceAccount: false };
const STRANGER: ManagePrincipal = { subject: OUTSIDER, roles: [], isServiceAccount: false };

/** The message of the rejection `decide` throws. */
function refusal(decide: () => WorkflowEvent[]): string {
  try {
    decide();
  } catch (error) {
    if (error instanceof Rejection) return error.message;
    throw error;
  }
  assert.fail('the command was not refused');
}

const manage = (taskstatus: number, state: WorkflowState, principal = AUTHOR_USER) =>
  refusal(() => decideManage({ taskstatus, principal, ...inputs() }, state));
const answer = (taskstatus: number, state: WorkflowState, respId = rid(1)) =>
  refusal(() =>
    decideAnswer({ respId, taskstatus, content: 'ok', caller: ALICE, deputiesOf: {}, ...inputs() }, state),
  );

/** A code in a message with no name beside it: `100`, not `100 (start approval)`, `100 start approval` or `cancel (103)`. */
function bareCodes(message: string): string[] {
  return [...message.matchAll(/(?<![a-z] \()\b(\d{1,3})\b(?! \(| [a-z])/g)]
    .map((m) => m[1]!)
    .filter((code) => TASK_STATUS_NAMES[Number(code)] !== undefined);
}

describe('workflow refusals name the action', () => {
  it('a move the state refuses says which move failed and the status in words', () => {
    assert.equal(
      manage(101, given(REGISTRATION)),
      'the workflow could not be suspended: only a workflow in progress can be suspended; it is draft',
    );
    assert.equal(
      manage(102, given(APPROVAL_STAGE_1)),
      'the workflow could not resume: only a suspended workflow can be resumed; it is in progress',
    );
    assert.equal(
      manage(100, given(APPROVAL_STAGE_1)),
      'approval could not start: the approval phase is in progress: cancel (103) or restart (104) it first',
    );
  });

  it('a move the caller may not make says which move it was', () => {
    assert.equal(
      manage(105, given(REGISTRATION), STRANGER),
      'signing could not start: the caller may not do this on this document',
    );
  });

  it('a code that is no move is told with the moves there are, each named', () => {
    assert.match(
      manage(99, given(REGISTRATION)),
      /^action 99 could not be applied: taskstatus 99 is no workflow move; the moves are 100 start approval, 101 suspend, .*111 delete$/,
    );
  });

  it('an answer the task does not take says which answer and names the ones it takes', () => {
    assert.equal(
      answer(8, given(APPROVAL_STAGE_1)),
      'the document could not be signed: taskstatus 8 (sign) does not answer a task of the approval phase (it takes 2 approve, 3 approve with edits, 4 decline)',
    );
    assert.equal(
      answer(2, given(SUSPENDED)),
      'the document could not be approved: the workflow is suspended',
    );
  });

  it('an action a create may not ask for names it and the ones it may', () => {
    assert.equal(
      refusal(() => decideCreateAction({ taskstatus: 101, ...inputs() }, given(REGISTRATION))),
      'taskstatus 101 (suspend) cannot be asked with a create; it takes 100 start approval, 104 restart, 105 start sign, 106 start execution, 107 move to archive, 108 move to repository',
    );
  });

  it('no refusal of any move or answer from any state has a bare code or an internal status name', () => {
    const states = [
      REGISTRATION,
      APPROVAL_STAGE_1,
      SUSPENDED,
      DECLINED,
      CANCELLED,
      SIGN,
      EXECUTION,
      ARCHIVE,
      REPOSITORY,
      BLOCKED,
    ].map((history) => given(history));
    const messages: string[] = [];
    const collect = (decide: () => WorkflowEvent[]) => {
      try {
        decide();
      } catch (error) {
        if (!(error instanceof Rejection)) throw error;
        messages.push(error.message);
      }
    };
    for (const state of states) {
      for (const taskstatus of MANAGE_TASK_STATUSES)
        for (const principal of [AUTHOR_USER, STRANGER])
          collect(() => decideManage({ taskstatus, principal, ...inputs() }, state));
      for (const taskstatus of ANSWER_TASK_STATUSES)
        for (const respId of [rid(1), rid(4), rid(9)])
          collect(() =>
            decideAnswer(
              { respId, taskstatus, content: 'ok', caller: ALICE, deputiesOf: {}, ...inputs() },
              state,
            ),
          );
    }
    assert.ok(messages.length > 100, `refusals seen: ${messages.length}`);
    for (const message of messages) {
      assert.match(message, /^[a-z ]+ could not [a-z ]+: /, message);
      assert.deepEqual(bareCodes(message.replace(/^[^:]+: /, '')), [], message);
      assert.doesNotMatch(message, /inProgress|approveWithEdits|executionDone/, message);
    }
  });
});
