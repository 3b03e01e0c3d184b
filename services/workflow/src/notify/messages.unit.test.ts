/**
 * What a notification e-mail says (issue 36): the document by its title on one line, its id and form,
 * and a link to its console page when DOCFLOW_PUBLIC_URL is set; never an address (recipients are ids).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WorkflowEvent } from '@docflow/contracts';
import { initialWorkflow, type WorkflowState } from '@docflow/workflow-model';
import { notificationOf } from './messages';

const DOC = '65a1f0c2b3d4e5f601234567';
const BOB = 'usr-3f2b8c1e-9d4a-4c7e-8b1f-2a6d5e7c9b01';
const AT = '2026-03-02T10:00:00.000Z';
const state: WorkflowState = { ...initialWorkflow, docId: DOC, form: 'memo' };
const opened: WorkflowEvent = {
  type: 'TaskOpened',
  data: { respId: DOC, phase: 'approval', step: 1, iteration: 1, assignee: BOB, at: AT },
};

describe('notification e-mail text', () => {
  it('names the document by its title and links to its console page', () => {
    const n = notificationOf(opened, state, { title: 'Budget 2027', publicUrl: 'https://docs.example.com' })!;
    assert.deepEqual(n.to, [BOB]);
    assert.equal(n.subject, 'docflow: a new task for you on \u201cBudget 2027\u201d');
    assert.equal(
      n.text,
      `A task on \u201cBudget 2027\u201d (document ${DOC}, form memo), stage 1, waits for your answer.\n\n` +
        `Open it: https://docs.example.com/console#/doc/${DOC}\n`,
    );
  });

  it('a title with line breaks stays on one line, a long one is cut; no public URL: no link', () => {
    const n = notificationOf(opened, state, {
      title: `Budget\r\nBcc: eve@example.com\u2028${'x'.repeat(200)}`,
    })!;
    assert.ok(!/[\r\n\u2028]/.test(n.subject), n.subject);
    assert.match(
      n.subject,
      /^docflow: a new task for you on \u201cBudget Bcc: eve@example\.com x+\u2026\u201d$/,
    );
    assert.ok(n.subject.length < 150, n.subject);
    assert.ok(!n.text.includes('Open it'), n.text);
  });

  it('a document the document service knows no more is named by its id', () => {
    const n = notificationOf(opened, state, {})!;
    assert.equal(n.subject, `docflow: a new task for you on document ${DOC}`);
    assert.match(n.text, new RegExp(`^A task on document ${DOC} \\(form memo\\), stage 1`));
  });
});
