/**
 * An event of a document the webhooks service does not remember arrives while the document service is
 * away (connections cut, then 503) for more calls than the bus makes before it dead-letters: the
 * consumer waits for the document service instead, and once it answers the webhook goes out once, with
 * the form and state it gave. Real in-process bus, SQLite stores and HTTP on 127.0.0.1; the document
 * service is a stand-in answering its internal position route.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  createInProcessBus,
  DEFAULT_HANDLER_RETRY,
  type DeliveredMessage,
  deadLetterTopic,
} from '@docflow/bus';
import { type DocumentPosition, topicsOf } from '@docflow/contracts';
import { createLogger, webIdFromHexId } from '@docflow/kit';
import { openEventStore } from '@docflow/kit/engines';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { httpClient } from '@docflow/kit/http';
import { outbox } from './outbox';
import { createWebhooksService } from './service';
import { subscriptionStore } from './subscriptions';
import { documentEnvelope, FIXTURE_AT, FIXTURE_DOC } from './test-fixtures';

const NAMESPACE = 'docflow';
const SECRET = `whsec_${Buffer.from('a test secret of thirty-two bytes').toString('base64')}`;
/** Calls the document service cuts off, then answers 503 to: more than the bus's dead-letter attempts. */
const CUT_OFF = 3;
const AWAY_FOR = DEFAULT_HANDLER_RETRY.attempts + 3;
const IN_APPROVAL: DocumentPosition = {
  form: 'memo',
  phase: 'approval',
  status: 'inProgress',
  step: 1,
  iteration: 1,
};

/** A promise, and the call that resolves it. */
function signal<T = void>() {
  let fire!: (value: T) => void;
  const fired = new Promise<T>((resolve) => {
    fire = resolve;
  });
  return { fire, fired };
}

async function listening(server: ReturnType<typeof createServer>): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('a document event while the document service is away', () => {
  const dir = mkdtempSync(join(tmpdir(), 'webhooks-wait-'));
  const closers: Array<() => Promise<unknown> | unknown> = [];
  after(async () => {
    for (const close of closers.reverse()) await close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('waits for it without dead-lettering, then delivers the webhook once with its form and state', async () => {
    // The document service: away (connections cut, then 503) until `back`, then where the document stood.
    const asked: string[] = [];
    const awayLongEnough = signal();
    let back = false;
    const document = createServer((req, res) => {
      asked.push(req.url ?? '');
      if (asked.length === AWAY_FOR) awayLongEnough.fire();
      if (back) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(IN_APPROVAL));
      } else if (asked.length <= CUT_OFF) {
        req.socket.destroy();
      } else {
        res.writeHead(503, { 'content-type': 'application/problem+json' }).end('{"status":503}');
      }
    });
    const documentUrl = await listening(document);
    closers.push(() => {
      document.closeAllConnections();
      document.close();
    });

    const received: Array<{ type: string; data: Record<string, unknown> }> = [];
    const delivered = signal();
    const receiver = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(204).end();
      delivered.fire();
    });
    const receiverUrl = await listening(receiver);
    closers.push(() => {
      receiver.closeAllConnections();
      receiver.close();
    });

    // Quick back-off, so that the document service is away for longer than the bus's retries last.
    const bus = createInProcessBus({ retry: { initialMs: 10, maxMs: 40 } });
    closers.push(() => bus.close());
    const topic = topicsOf(NAMESPACE).document;
    const deadLetters: DeliveredMessage[] = [];
    const deadLettered = signal();
    await bus.subscribe({ groupId: 'test.dlq', topics: [deadLetterTopic(topic)] }, async (message) => {
      deadLetters.push(message);
      deadLettered.fire();
    });

    const store = openEventStore('webhooks', { DOCFLOW_DATA_DIR: dir });
    closers.push(() => store.close());
    const db = openLocalDb(join(dir, 'local.db'));
    closers.push(() => db.close());
    const subscription = {
      id: 'wh_state',
      url: `${receiverUrl}/hooks`,
      eventTypes: ['document.state_changed' as const],
      createdAt: FIXTURE_AT,
      secret: SECRET,
    };
    subscriptionStore(db).add(subscription);
    const service = createWebhooksService({
      service: 'webhooks',
      store,
      bus,
      db,
      log: createLogger('webhooks', 'silent'),
      namespace: NAMESPACE,
      internalToken: 'internal-token',
      allowedHosts: ['127.0.0.1'],
      retrySchedule: [100],
      timeoutMs: 5_000,
      logDays: 30,
      document: httpClient(documentUrl),
    });
    await service.start();

    // Revision 4 of a document this service has no row for: it asks where the document stood at 3.
    const suspended = { type: 'WorkflowSuspended', data: { at: FIXTURE_AT } };
    const event = documentEnvelope('WorkflowChanged', { events: [suspended], sourceIds: ['s1'] }, 4);
    await bus.publish(topic, [{ id: event.id, key: FIXTURE_DOC, value: event }]);

    const first = await Promise.race([
      awayLongEnough.fired.then(() => 'still waiting'),
      deadLettered.fired.then(() => 'dead-lettered'),
    ]);
    assert.equal(first, 'still waiting', 'the event outlasted the dead-letter attempts');
    back = true;
    await delivered.fired;
    // Stopping waits for the delivery under way to be recorded.
    await service.stop();

    assert.ok(asked.length > AWAY_FOR, 'asked again once the document service was back');
    assert.ok(asked.every((url) => url === `/internal/v1/documents/${FIXTURE_DOC}/position?rev=3`));
    assert.equal(received.length, 1, 'delivered once');
    assert.equal(received[0]!.type, 'document.state_changed');
    assert.deepEqual(received[0]!.data, {
      documentId: FIXTURE_DOC,
      idWeb: webIdFromHexId(FIXTURE_DOC),
      form: 'memo',
      revision: 4,
      state: 1,
      status: 3,
      step: 1,
      iteration: 1,
    });
    const log = await outbox(db, 1000).log(subscription.id, 0, 10);
    assert.deepEqual(
      log.page.map((d) => d.status),
      ['delivered'],
    );
    assert.deepEqual(deadLetters, [], 'nothing went to the dead-letter topic');
  });
});
