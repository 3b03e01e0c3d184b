import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeliveredMessage } from '@docflow/bus';
import { createLogger, webIdFromHexId } from '@docflow/kit';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { problems } from '@docflow/kit/http';
import { documentEventsHandler } from './document-consumer';
import type { FactsAt } from './document-position';
import type { DocumentFacts } from './event-mapping';
import { outbox } from './outbox';
import type { Subscription } from './subscription';
import { subscriptionStore } from './subscriptions';
import { documentEnvelope, FIXTURE_DOC } from './test-fixtures';

const DOC = FIXTURE_DOC;

function message(type: string, data: Record<string, unknown>, revision: number, stream = `docForm-${DOC}`) {
  const value = documentEnvelope(type, data, revision, stream);
  return { topic: 'docflow.document', key: DOC, id: value.id, value } satisfies DeliveredMessage;
}

describe('document events → outbox', () => {
  /** The document service's answer: where the document stood at each revision asked for. */
  function setup(
    stood: (rev: number) => DocumentFacts = () => assert.fail('the document service was asked'),
  ) {
    const logged: Array<Record<string, unknown>> = [];
    const db = openLocalDb(':memory:');
    const subscriptions = subscriptionStore(db);
    const box = outbox(db, 1000);
    let kicks = 0;
    const asked: number[] = [];
    const factsAt: FactsAt = async (docId, rev) => {
      assert.equal(docId, DOC);
      asked.push(rev);
      return stood(rev);
    };
    const handle = documentEventsHandler({
      factsAt,
      subscriptions,
      outbox: box,
      enqueued: () => kicks++,
      log: createLogger('webhooks', 'warn', { write: (line: string) => logged.push(JSON.parse(line)) }),
    });
    const subscribe = async (id: string, eventTypes: Subscription['eventTypes']) => {
      const subscription = { id, url: `https://${id}.example/h`, eventTypes, createdAt: '', secret: 's' };
      await subscriptions.add(subscription);
      return subscription;
    };
    return { subscribe, box, handle, kicks: () => kicks, asked, logged };
  }
  const created = () =>
    message(
      'DocumentCreated',
      {
        id: DOC,
        form: 'memo',
        formsystype: 1,
        author: 'a',
        valuesByTags: {},
        tags: [],
        files: [],
        datedue: '',
      },
      1,
    );

  it('adds a row per subscription whose event types match, once however often a message comes', async () => {
    const { subscribe, box, handle, kicks } = setup();
    const all = await subscribe('wh_all', ['document.created', 'task.opened']);
    const tasks = await subscribe('wh_tasks', ['task.opened']);
    const msg = created();
    await handle(msg);
    await handle(msg);
    assert.equal((await box.log(all.id, 0, 10)).total, 1);
    assert.equal((await box.log(tasks.id, 0, 10)).total, 0);
    assert.equal(kicks(), 2);
  });

  it('remembers the form for later events, and passes by other streams', async () => {
    const { subscribe, box, handle } = setup();
    await handle(created());
    const sub = await subscribe('wh_reco', ['recognition.done']);
    await handle(message('FormDefined', { definition: {} }, 1, 'form-memo'));
    await handle(message('RecognitionFailed', { fileId: DOC, reason: 'r', detail: 'd', sourceId: 's' }, 2));
    const [row] = await box.claim(Number.MAX_SAFE_INTEGER, 10);
    assert.equal(row?.subscriptionId, sub.id);
    assert.equal(JSON.parse(row!.payload).data.form, 'memo');
    assert.equal((await box.log(sub.id, 0, 10)).total, 1);
  });

  it('maps an event of a document it does not remember from where the document service says it stood', async () => {
    const inApproval: DocumentFacts = {
      form: 'memo',
      phase: 'approval',
      status: 'inProgress',
      step: 1,
      iteration: 1,
    };
    const { subscribe, box, handle, asked } = setup(() => inApproval);
    const sub = await subscribe('wh_state', ['document.state_changed']);
    const suspended = { type: 'WorkflowSuspended', data: { at: '2026-11-24T07:00:00.000Z' } };
    await handle(message('WorkflowChanged', { events: [suspended], sourceIds: ['s1'] }, 4));
    assert.deepEqual(asked, [3], 'asked once, for the revision before the event');
    const [row] = await box.claim(Number.MAX_SAFE_INTEGER, 10);
    assert.equal(row?.subscriptionId, sub.id);
    assert.deepEqual(JSON.parse(row!.payload).data, {
      documentId: DOC,
      idWeb: webIdFromHexId(DOC),
      form: 'memo',
      revision: 4,
      state: 1,
      status: 3,
      step: 1,
      iteration: 1,
    });
    await handle(message('DocumentFieldsUpdated', { valuesByTags: {}, tags: [] }, 5));
    assert.deepEqual(asked, [3], 'remembered afterwards');
  });

  it('fails an event of a document the document service does not know, and says so at warn with its ids', async () => {
    const { subscribe, box, handle, logged } = setup(() => {
      throw problems.notFound('no such document');
    });
    await subscribe('wh_state', ['document.state_changed']);
    const msg = message('DocumentFieldsUpdated', { valuesByTags: {}, tags: [] }, 4);
    await assert.rejects(handle(msg), (error: unknown) => (error as { status?: number }).status === 404);
    assert.equal((await box.claim(Number.MAX_SAFE_INTEGER, 10)).length, 0);
    assert.deepEqual(
      logged.map(({ level, eventId, documentId, revision }) => ({ level, eventId, documentId, revision })),
      [{ level: 40, eventId: msg.id, documentId: DOC, revision: 3 }],
    );
  });
});
