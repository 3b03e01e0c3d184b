import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import type { DeliveredMessage } from '@docflow/bus';
import { docFormStream, type EventEnvelope } from '@docflow/contracts';
import { commandMetadata } from '@docflow/kit/eventsourcing';
import { openTasks } from '@docflow/workflow-model';
import { workflowFactsHandler } from '../../consumers/workflow-consumer';
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
      xError: 'approval could not start: the workflow has started already',
    });
    assert.equal(workflow.asked.length, 1);
    assert.equal((await store.readStream(docFormStream(created.id))).length, 1);
  });

  it("an applied action: the answer waits until the bus consumer recorded the command's facts, as one change", async () => {
    const created = await createdDoc('d0c0000000000000000000d2');
    const facts = APPROVAL_STAGE_1.map(({ type, data }) => ({ id: randomUUID(), type, data }));
    const workflow = workflowAnswering(() => Response.json({ events: facts }));
    const starting = startWorkflow(store, workflow.calls, ctx, created, 100);
    // The bus delivers the command's append as one message, and once more (a redelivery).
    const handle = workflowFactsHandler(store);
    await handle(delivered(created.id, facts));
    await handle(delivered(created.id, facts));
    const started = await starting;
    assert.equal(started.xError, undefined);
    assert.equal(openTasks(started.doc.workflow).length, 2);
    const recorded = (await store.readStream(docFormStream(created.id))).slice(1);
    assert.deepEqual(
      recorded.map((e) => ({
        type: e.type,
        sourceIds: e.data.sourceIds,
        causationId: e.metadata.causationId,
      })),
      [{ type: 'WorkflowChanged', sourceIds: facts.map((f) => f.id), causationId: facts[0]!.id }],
      "one WorkflowChanged for the command's facts, appended by the consumer",
    );
  });

  it('an action the bus does not deliver within the bound: the document as created, 503 in X-Error', async () => {
    const created = await createdDoc('d0c0000000000000000000d3');
    const facts = APPROVAL_STAGE_1.map(({ type, data }) => ({ id: randomUUID(), type, data }));
    const workflow = workflowAnswering(() => Response.json({ events: facts }));
    const calls = { ...workflow.calls, factsWaitMs: 50 };
    const started = await startWorkflow(store, calls, ctx, created, 100);
    assert.equal(started.doc, created);
    assert.match(started.xError ?? '', /^approval could not start: .*message bus/);
    assert.equal((await store.readStream(docFormStream(created.id))).length, 1);
  });
});

/** The append of `workflow-<docId>` holding `facts`, as the workflow relay publishes it. */
function delivered(
  docId: string,
  facts: { id: string; type: string; data: Record<string, unknown> }[],
): DeliveredMessage {
  const events: EventEnvelope[] = facts.map((fact, i) => ({
    ...fact,
    version: 1,
    streamId: `workflow-${docId}`,
    revision: i + 1,
    recordedAt: new Date().toISOString(),
    metadata: {
      correlationId: 'corr-1',
      timestamp: new Date().toISOString(),
      append: { index: i, count: facts.length },
    },
  }));
  return { id: facts.at(-1)!.id, key: docId, topic: 'test.workflow', value: { events } };
}
