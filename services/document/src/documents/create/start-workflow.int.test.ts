import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { docFormStream } from '@docflow/contracts';
import { commandMetadata } from '@docflow/kit/eventsourcing';
import { openTasks } from '@docflow/workflow-model';
import { APPROVAL_STAGE_1 } from '../test-fixtures';
import { appendCreated } from './append';
import { startWorkflow } from './start-workflow';
import { command, context, peer, TOKEN, tempStore } from './test-givens';

describe('create step: start the workflow (SQLite event store, workflow over the in-process client)', () => {
  const { store, close } = tempStore();
  after(close);
  const ctx = context();
  const createdDoc = (id: string) =>
    appendCreated(store, command({ id }), commandMetadata(ctx.principal, ctx.ids));
  const workflowAnswering = (answer: () => Response) => {
    const workflow = peer(answer);
    return { asked: workflow.asked, calls: { workflow: workflow.client, internalToken: TOKEN } };
  };

  it('a refused action: the document as created, and why in X-Error', async () => {
    const created = await createdDoc('d0c0000000000000000000d1');
    const workflow = workflowAnswering(() =>
      Response.json(
        { status: 422, title: 'Nothing was changed', detail: 'the workflow has started already' },
        { status: 422 },
      ),
    );
    const started = await startWorkflow(store, workflow.calls, ctx, created, 100);
    assert.deepEqual(started, {
      doc: created,
      xError: 'workflow action 100 not applied: the workflow has started already',
    });
    assert.equal(workflow.asked.length, 1);
    assert.equal((await store.readStream(docFormStream(created.id))).length, 1);
  });

  it("an applied action: the workflow's facts recorded in the document, no X-Error", async () => {
    const created = await createdDoc('d0c0000000000000000000d2');
    const facts = APPROVAL_STAGE_1.map(({ type, data }) => ({ id: randomUUID(), type, data }));
    const workflow = workflowAnswering(() => Response.json({ events: facts }));
    const started = await startWorkflow(store, workflow.calls, ctx, created, 100);
    assert.equal(started.xError, undefined);
    assert.equal(openTasks(started.doc.workflow).length, 2);
    assert.equal((await store.readStream(docFormStream(created.id))).length, 2);
  });
});
