/**
 * Webhooks end to end, in every mode: a real receiver on 127.0.0.1 verifies each signature; documents
 * are created and moved through their workflow; failed answers are retried; the sending process is
 * killed while a delivery is under way and restarted; afterwards every event arrived, each
 * `webhook-id` once after deduplication, in order per document, and the delivery log says so.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createDoc, createPerson, eventually } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import {
  type DistributedTarget,
  distributedSkipReason,
  newAdminKey,
  startDistributed,
  startEmbedded,
  type Target,
} from '../support/targets';
import {
  type ReceivedDelivery,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../support/webhook-receiver';

const ENV = {
  DOCFLOW_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  // Quick retries for the test; long enough in all (~15 s) to outlast the restart of the sender.
  DOCFLOW_WEBHOOK_RETRY_SCHEDULE: '100ms,200ms,400ms,800ms,1s,2s,2s,2s,2s,2s,2s',
};
const SUBJECT = 'Confidential merger plan';
const ALL_TYPES = [
  'document.created',
  'document.state_changed',
  'task.opened',
  'task.answered',
  'recognition.done',
];
const WAIT_MS = 90_000;
/** A document started into its one-stage approval and approved. */
const FLOW = [
  'document.created',
  'document.state_changed',
  'task.opened',
  'task.answered',
  'document.state_changed',
];

/** A mode: its system, and how to kill the process that sends webhooks and start it again. */
interface Mode {
  name: string;
  skip?: string;
  start(): Promise<Target>;
  /** SIGKILLs the sender; `whileDown` runs before it is started again. */
  killSender(target: Target, whileDown: (target: Target) => Promise<void>): Promise<Target>;
}

const modes: Mode[] = [
  {
    name: 'embedded',
    async start() {
      const dataDir = mkdtempSync(join(tmpdir(), 'docflow-webhooks-'));
      return startEmbedded({ dataDir, adminKey: newAdminKey(), env: ENV });
    },
    async killSender(target, whileDown) {
      await (target as Awaited<ReturnType<typeof startEmbedded>>).proc.kill();
      const restarted = await startEmbedded({ dataDir: target.dataDir, adminKey: target.adminKey, env: ENV });
      // Nothing of the system runs while the one process is down: the work comes after the restart.
      await whileDown(restarted);
      const { stop } = restarted;
      return {
        ...restarted,
        output: () => `${target.output()}\n${restarted.output()}`,
        async stop() {
          await stop();
          rmSync(target.dataDir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'distributed',
    skip: distributedSkipReason(),
    start: () => startDistributed({ env: ENV }),
    async killSender(target, whileDown) {
      const distributed = target as DistributedTarget;
      await distributed.procs.webhooks!.kill();
      // The rest of the system goes on: these events wait on the bus for the sender's return.
      await whileDown(target);
      await distributed.restart('webhooks', { kill: true });
      return target;
    },
  },
];

/** The first arrival of each `webhook-id`, in arrival order. */
function deduplicated(received: ReceivedDelivery[]): ReceivedDelivery[] {
  const seen = new Map<string, ReceivedDelivery>();
  for (const d of received) if (!seen.has(d.webhookId)) seen.set(d.webhookId, d);
  return [...seen.values()];
}

const typesOf = (received: ReceivedDelivery[], docId: string) =>
  deduplicated(received)
    .filter((d) => d.payload.data.documentId === docId)
    .map((d) => d.payload.type);

for (const mode of modes) {
  describe(`webhooks [${mode.name}]`, { skip: mode.skip, timeout: 300_000 }, () => {
    let target: Target;
    let api: Api;
    let receiver: WebhookReceiver;
    let svc: string;
    let bob: string;
    let webhookId: string;
    const docs: Record<string, string> = {};

    const admin = () => ({ key: target.adminKey });
    const create = async (start: boolean) => {
      const res = await createDoc(target.baseUrl, svc, 'wh', {
        docForm: { valuesByTags: { subject: SUBJECT } },
        ...(start ? { docResponse: { taskstatus: 100 } } : {}),
      });
      assert.equal(res.status, 201, res.text);
      return res.body._id as string;
    };
    async function approve(docId: string) {
      const read = await api('GET', `/api/v2/docForm/${docId}?embed=docResponse`, { key: svc, runAs: bob });
      assert.equal(read.status, 200, read.text);
      const res = await api('PUT', `/api/v2/docForm/${docId}/docResponse/${read.body.docResponse.respId}`, {
        key: svc,
        runAs: bob,
        body: { docResponse: { taskstatus: 2, content: 'fine by bob@example.com' } },
      });
      assert.equal(res.status, 200, res.text);
    }
    const deliveries = (query = '') =>
      api('GET', `/api/admin/v1/webhooks/${webhookId}/deliveries${query}`, admin());
    /**
     * Waits until the receiver has seen as many events of each document as `expected` names (the
     * consumer may lag) and the delivery log has no pending row; then every delivery succeeded.
     */
    async function settled(expected: Record<string, string[]>) {
      const log = await eventually(
        () => deliveries('?pageSize=1000'),
        (res) =>
          Object.entries(expected).every(
            ([doc, types]) => typesOf(receiver.received, doc).length >= types.length,
          ) &&
          res.status === 200 &&
          res.body.every((d: any) => d.status !== 'pending'),
        WAIT_MS,
      );
      assert.equal(log.status, 200, log.text);
      assert.deepEqual(
        log.body.filter((d: any) => d.status !== 'delivered'),
        [],
        'every delivery succeeded',
      );
      for (const [doc, types] of Object.entries(expected))
        assert.deepEqual(typesOf(receiver.received, doc), types);
      return log;
    }

    before(async () => {
      receiver = await startWebhookReceiver();
      target = await mode.start();
      api = apiClient(target.baseUrl);
      bob = await createPerson(api, target.adminKey, 'bob@example.com');
      const s = await api('POST', '/api/admin/v1/accounts', {
        ...admin(),
        body: {
          kind: 'service',
          email: 'portal@example.com',
          name_first: 'P',
          name_last: 'S',
          roles: ['svcAdminDocsRW'],
        },
      });
      assert.equal(s.status, 201, s.text);
      svc = s.body.apiKey;
      const form = {
        name: 'wh',
        title: 'Webhook test',
        formsystype: 9,
        tags: { subject: 'string' },
        workflow: { approval: { stages: [{ participants: ['bob@example.com'] }] } },
      };
      const put = await api('PUT', '/api/admin/v1/forms/wh', { ...admin(), body: form });
      assert.equal(put.status, 201, put.text);
    });
    after(async () => {
      await target?.stop();
      await receiver?.close();
    });

    it('refuses targets on loopback or private addresses the allow-list does not name, and bad input', async () => {
      for (const url of [
        'http://127.0.0.2:9/x',
        'http://[::1]:9/x',
        'http://10.0.0.7/x',
        'http://169.254.169.254/',
      ]) {
        const res = await api('POST', '/api/admin/v1/webhooks', {
          ...admin(),
          body: { url, eventTypes: ['document.created'] },
        });
        assert.equal(res.status, 400, `${url}: ${res.text}`);
        assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
      }
      for (const body of [
        { url: 'ftp://127.0.0.1/x', eventTypes: ['document.created'] },
        { url: receiver.url, eventTypes: ['document.exploded'] },
        { url: receiver.url, eventTypes: [] },
      ]) {
        const res = await api('POST', '/api/admin/v1/webhooks', { ...admin(), body });
        assert.equal(res.status, 400, res.text);
      }
      const res = await api('POST', '/api/admin/v1/webhooks', {
        key: svc,
        body: { url: receiver.url, eventTypes: ['document.created'] },
      });
      assert.equal(res.status, 403, res.text);
      assert.deepEqual((await api('GET', '/api/admin/v1/webhooks', admin())).body, []);
    });

    it('registers a webhook: the secret is shown once', async () => {
      const res = await api('POST', '/api/admin/v1/webhooks', {
        ...admin(),
        body: { url: receiver.url, eventTypes: ALL_TYPES, description: 'portal' },
      });
      assert.equal(res.status, 201, res.text);
      assert.match(res.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.match(res.body.id, /^wh_[0-9a-f]{24}$/);
      webhookId = res.body.id;
      receiver.secret = res.body.secret;
      const read = await api('GET', `/api/admin/v1/webhooks/${webhookId}`, admin());
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(read.body, {
        id: webhookId,
        url: receiver.url,
        eventTypes: ALL_TYPES,
        description: 'portal',
        createdAt: read.body.createdAt,
      });
      const list = await api('GET', '/api/admin/v1/webhooks', admin());
      assert.deepEqual(list.body, [read.body]);
      assert.equal(
        (await api('GET', '/api/admin/v1/webhooks/wh_000000000000000000000000', admin())).status,
        404,
      );
    });

    it('delivers signed events of documents moving through their workflow, retrying failed answers', async () => {
      receiver.failNext(3);
      docs.a = await create(true);
      docs.b = await create(false);
      await approve(docs.a);
      const log = await settled({ [docs.a]: FLOW, [docs.b]: ['document.created'] });
      assert.ok(
        log.body.some((d: any) => d.attempts > 1 && d.lastStatus === 204),
        'a delivery that failed first was retried',
      );
      assert.equal(receiver.received.filter((d) => d.answered === 500).length, 3);
    });

    it('kills the sender while a delivery is under way: after the restart nothing is lost', async () => {
      const held = receiver.holdNext();
      docs.c = await create(true);
      const inFlight = await held;
      assert.equal(inFlight.payload.data.documentId, docs.c);
      let startedWhileDown = '';
      target = await mode.killSender(target, async (t) => {
        target = t;
        api = apiClient(t.baseUrl);
        startedWhileDown = await create(true);
      });
      docs.d = startedWhileDown;
      api = apiClient(target.baseUrl);
      await approve(docs.c);
      await approve(startedWhileDown);
      docs.e = await create(false);
      const log = await settled({
        [docs.c]: FLOW,
        [startedWhileDown]: FLOW,
        [docs.e]: ['document.created'],
      });

      // The delivery the crash interrupted came again, with the same id.
      assert.ok(receiver.received.filter((d) => d.webhookId === inFlight.webhookId).length >= 2);
      const unique = deduplicated(receiver.received);
      assert.equal(log.headers.get('svc-total-count'), String(unique.length));
      assert.deepEqual(
        new Set(log.body.map((d: any) => d.webhookId)),
        new Set(unique.map((d) => d.webhookId)),
      );
    });

    it('every delivery was signed, a repeat is the same message, and no personal data or value was sent', () => {
      assert.ok(receiver.received.length > 0);
      for (const d of receiver.received) assert.ok(d.verified, `signature of ${d.webhookId} verifies`);
      const first = new Map(deduplicated(receiver.received).map((d) => [d.webhookId, d.body]));
      for (const d of receiver.received) assert.equal(d.body, first.get(d.webhookId));
      for (const d of receiver.received) {
        assert.doesNotMatch(d.body, /@|Confidential|fine by/);
        assert.equal(d.payload.data.form, 'wh');
        assert.ok(ALL_TYPES.includes(d.payload.type));
      }
      // Per document, revisions only go up in arrival order (after deduplication).
      for (const docId of Object.values(docs)) {
        const revisions = deduplicated(receiver.received)
          .filter((d) => d.payload.data.documentId === docId)
          .map((d) => d.payload.data.revision);
        assert.deepEqual(
          revisions,
          [...revisions].sort((x, y) => x - y),
          docId,
        );
      }
      assert.ok(!target.output().includes(receiver.secret), 'the secret is never logged');
    });

    it('reads the delivery log page by page, and deleting the webhook stops it', async () => {
      const all = await deliveries('?pageSize=1000');
      const page = await deliveries('?first=1&pageSize=2');
      assert.equal(page.status, 200, page.text);
      assert.equal(page.headers.get('svc-total-count'), all.headers.get('svc-total-count'));
      assert.deepEqual(page.body, all.body.slice(1, 3));
      const entry = page.body[0];
      assert.deepEqual(Object.keys(entry).sort(), [
        'attempts',
        'createdAt',
        'deliveredAt',
        'documentId',
        'eventType',
        'lastError',
        'lastStatus',
        'nextAttemptAt',
        'status',
        'webhookId',
      ]);
      assert.equal((await deliveries('?pageSize=0')).status, 400);

      const del = await api('DELETE', `/api/admin/v1/webhooks/${webhookId}`, admin());
      assert.equal(del.status, 204, del.text);
      assert.equal((await api('GET', `/api/admin/v1/webhooks/${webhookId}`, admin())).status, 404);
      assert.equal((await deliveries()).status, 404);
    });
  });
}
