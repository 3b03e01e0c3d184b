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
      xError: 'workflow action 100 not applied: the workflow has started already',
    });
    assert.equal(workflow.asked.length, 1);
    assert.equal((await store.readStream(docFormStream(created.id))).length, 1);
  });

  it("an applied action: the answer waits for the workflow's facts, recorded once each, by the bus consumer only", async () => {
    const created = await createdDoc('d0c0000000000000000000d2');
    const facts = APPROVAL_STAGE_1.map(({ type, data }) => ({ id: randomUUID(), type, data }));
    const workflow = workflowAnswering(() => Response.json({ events: facts }));
    const starting = startWorkflow(store, workflow.calls, ctx, created, 100);
    // The bus delivers the facts the workflow service appended (and one of them twice).
    const handle = workflowFactsHandler(store);
    for (const [revision, fact] of [...facts.entries(), [0, facts[0]!] as const]) {
      await handle(delivered(created.id, revision + 1, fact));
    }
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
      facts.map((f) => ({ type: 'WorkflowChanged', sourceIds: [f.id], causationId: f.id })),
      'one WorkflowChanged per fact, each appended by the consumer',
    );
  });
});

/** A fact of `workflow-<docId>` as the bus delivers it. */
function delivered(
  docId: string,
  revision: number,
  fact: { id: string; type: string; data: Record<string, unknown> },
): DeliveredMessage {
  const envelope: EventEnvelope = {
    ...fact,
    version: 1,
    streamId: `workflow-${docId}`,
    revision,
    recordedAt: new Date().toISOString(),
    metadata: { correlationId: 'corr-1', timestamp: new Date().toISOString() },
  };
  return { id: fact.id, key: docId, topic: 'test.workflow', value: envelope };
}
