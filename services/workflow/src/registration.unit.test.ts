/** Registration: a document's workflow starts from the DocumentCreated the document service publishes. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { initialWorkflow } from '@docflow/workflow-model';
import { decideRegister } from './businessLogic';
import { AUTHOR, DOC, ev, given, MEMO, REGISTRATION, T0 } from './test-fixtures';

describe('registration', () => {
  it('DocumentCreated registers the document with its form’s workflow', () => {
    const cmd = { docId: DOC, form: 'memo', author: AUTHOR, workflow: MEMO, at: T0 };
    assert.deepEqual(decideRegister(cmd, initialWorkflow), [ev.registered()]);
  });
  it('a redelivered DocumentCreated adds nothing', () => {
    const cmd = { docId: DOC, form: 'memo', author: AUTHOR, workflow: MEMO, at: T0 };
    assert.deepEqual(decideRegister(cmd, given(REGISTRATION)), []);
  });
});
