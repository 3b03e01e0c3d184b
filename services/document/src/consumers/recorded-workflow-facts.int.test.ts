import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { docFormStream } from '@docflow/contracts';
import { commandMetadata, executeCommand } from '@docflow/kit/eventsourcing';
import { appendCreated } from '../documents/create/append';
import { command, context, tempStore } from '../documents/create/test-givens';
import { docAggregate } from '../documents/docForm';
import { APPROVAL_STAGE_1 } from '../documents/test-fixtures';
import { wakeFactWaiters, workflowFactsRecorded } from './recorded-workflow-facts';

describe('waiting for workflow facts the bus records (SQLite event store)', () => {
  const { store, close } = tempStore();
  after(close);
  const ctx = context();
  const created = (id: string) =>
    appendCreated(store, command({ id }), commandMetadata(ctx.principal, ctx.ids));
  const record = (docId: string, factId: string) =>
    executeCommand(
      store,
      docFormStream(docId),
      docAggregate,
      () => [
        { type: 'WorkflowChanged' as const, data: { sourceIds: [factId], events: [APPROVAL_STAGE_1[0]!] } },
      ],
      commandMetadata(ctx.principal, ctx.ids),
    );

  it('answers the document once its stream holds every fact', async () => {
    const doc = await created('d0c0000000000000000000e1');
    const [a, b] = [randomUUID(), randomUUID()];
    const waiting = workflowFactsRecorded(store, doc.id, [a, b], 60_000);
    await record(doc.id, a);
    wakeFactWaiters(store, doc.id);
    await record(doc.id, b);
    wakeFactWaiters(store, doc.id);
    const state = await waiting;
    assert.deepEqual(state?.workflowSourceIds, [a, b]);
  });

  it('answers undefined once the bound passed without the facts (the bus does not deliver)', async () => {
    const doc = await created('d0c0000000000000000000e2');
    assert.equal(await workflowFactsRecorded(store, doc.id, [randomUUID()], 100), undefined);
  });
});
