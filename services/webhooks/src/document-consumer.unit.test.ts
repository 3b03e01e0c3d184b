import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeliveredMessage } from '@docflow/bus';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { documentEventsHandler } from './document-consumer';
import { documentFactsStore } from './document-facts';
import { outbox } from './outbox';
import { subscriptionStore } from './subscriptions';
import { documentEnvelope, FIXTURE_DOC } from './test-fixtures';

const DOC = FIXTURE_DOC;

function message(type: string, data: Record<string, unknown>, revision: number, stream = `docForm-${DOC}`) {
  const value = documentEnvelope(type, data, revision, stream);
  return { topic: 'docflow.document', key: DOC, id: value.id, value } satisfies DeliveredMessage;
}

describe('document events → outbox', () => {
  function setup() {
    const db = openLocalDb(':memory:');
    const subscriptions = subscriptionStore(db);
    const box = outbox(db);
    let kicks = 0;
    const handle = documentEventsHandler({
      db,
      facts: documentFactsStore(db),
      subscriptions,
      outbox: box,
      enqueued: () => kicks++,
    });
    return { subscriptions, box, handle, kicks: () => kicks };
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
    const { subscriptions, box, handle, kicks } = setup();
    const all = subscriptions.create({
      url: 'https://a.example/h',
      eventTypes: ['document.created', 'task.opened'],
    });
    const tasks = subscriptions.create({ url: 'https://b.example/h', eventTypes: ['task.opened'] });
    const msg = created();
    await handle(msg);
    await handle(msg);
    assert.equal(box.log(all.id, 0, 10).total, 1);
    assert.equal(box.log(tasks.id, 0, 10).total, 0);
    assert.equal(kicks(), 2);
  });

  it('remembers the form for later events, and passes by other streams', async () => {
    const { subscriptions, box, handle } = setup();
    await handle(created());
    const sub = subscriptions.create({ url: 'https://a.example/h', eventTypes: ['recognition.done'] });
    await handle(message('FormDefined', { definition: {} }, 1, 'form-memo'));
    await handle(message('RecognitionFailed', { fileId: DOC, reason: 'r', detail: 'd', sourceId: 's' }, 2));
    const [row] = box.due(Number.MAX_SAFE_INTEGER, 10);
    assert.equal(row?.subscriptionId, sub.id);
    assert.equal(JSON.parse(row!.payload).data.form, 'memo');
    assert.equal(box.log(sub.id, 0, 10).total, 1);
  });
});
