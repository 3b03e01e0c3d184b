/**
 * Upgrades keep every document (issue 31): a data directory written by the previous release (a git
 * worktree of the pinned commit, started with its own `pnpm start`, fed the data set of dataset.ts
 * through the API) is opened by this checkout, and every read answers the same: each document with
 * every `?rev`, `asOf`, history, verify, export and attachment bytes, the accounts and persons, forms,
 * views and searches, webhooks and their delivery log, and the store-wide audit verdict. Then new
 * writes work on the old data. A second suite leaves webhook deliveries pending at the old release's
 * stop and sees this checkout deliver them.
 *
 * The reference is the previous release started again on its own data after writing it, so what a
 * restart alone changes is not taken for an upgrade's doing. Allowed differences (reads.ts): the time
 * of an export itself (`exportedAt`, its tar entries' times), members the previous release did not answer
 * (a field added since), and a listing may lag behind the start
 * and is read again until it answers the same (bounded); nothing else.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { createDoc, createPerson, eventually } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { REPO_ROOT } from '../support/process';
import {
  prepareRelease,
  releaseSkipReason,
  runScript,
  type StartedRelease,
  startRelease,
} from '../support/release-checkout';
import { newAdminKey } from '../support/targets';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { type Dataset, DOCUMENTS, FORM, INVOICE_PDF, OTHER_SUBJECTS, readsOf, writeDataset } from './dataset';
import { PINNED_RELEASE } from './pinned-release';
import { type Read, type Records, recordAll, withoutAdded } from './reads';

/** Whole run bound: checkout (cached after the first run), two releases written and read, new writes. */
const UPGRADE_TIMEOUT_MS = 480_000;
const SETTLE_MS = 90_000;
/** Both releases: webhooks may reach the receiver on 127.0.0.1. */
const ENV = {
  DOCFLOW_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  // Audit checkpoints within the run, so the store-wide verify has one of the previous release's.
  DOCFLOW_AUDIT_CHECKPOINT_MS: '1000',
  LOG_LEVEL: 'info',
};

/**
 * Subjects that do not read the same after the upgrade, with the reason: the comparison still runs
 * and reports, as a todo, until the reason is fixed.
 */
const KNOWN_DIFFERENCES: Record<string, string> = {};

const skip = releaseSkipReason(PINNED_RELEASE.commit);

/** The reads of one subject that answer otherwise now, before and after, by read. */
function differences(earlier: Records, now: Records, subject: string) {
  const was = earlier.get(subject) ?? new Map();
  const is = now.get(subject) ?? new Map();
  const compared = (key: string) => withoutAdded(is.get(key), was.get(key));
  const changed = [...was.keys()].filter((key) => !isDeepStrictEqual(was.get(key), compared(key)));
  return {
    before: Object.fromEntries(changed.map((key) => [key, was.get(key)])),
    after: Object.fromEntries(changed.map((key) => [key, compared(key)])),
  };
}

async function stopGracefully(release: StartedRelease): Promise<void> {
  const code = await release.proc.stop(30_000);
  assert.equal(code, 0, release.proc.output().slice(-3000));
  assert.match(release.proc.output(), /"msg":"docflow stopped"/);
}

/** The checkout in `dir` started on `env`, used, then stopped gracefully (or just stopped when `use` failed). */
async function withRelease<T>(
  dir: string,
  env: Record<string, string>,
  name: string,
  use: (release: StartedRelease) => Promise<T>,
): Promise<T> {
  const release = await startRelease(dir, env, name);
  let result: T;
  try {
    result = await use(release);
  } catch (error) {
    await release.proc.stop();
    throw error;
  }
  await stopGracefully(release);
  return result;
}

/** What the checkout in `dir` says of the whole store of `dataDir` (`pnpm audit:verify-store`). */
async function storeVerdict(dir: string, dataDir: string) {
  const ran = await runScript(dir, 'audit:verify-store', { DOCFLOW_DATA_DIR: dataDir });
  assert.ok(ran.stdout.trim().startsWith('{'), `audit:verify-store: ${ran.stdout}${ran.stderr}`);
  return { code: ran.code, verdict: JSON.parse(ran.stdout) };
}

describe(`upgrade from ${PINNED_RELEASE.name} (the previous release, pinned) to this checkout`, {
  skip,
  timeout: UPGRADE_TIMEOUT_MS,
}, () => {
  let receiver: WebhookReceiver;
  let dataDir: string;
  let data: Dataset;
  let reads: Read[];
  let earlier: Records;
  let now: Records;
  let earlierStore: Awaited<ReturnType<typeof storeVerdict>>;
  let nowStore: Awaited<ReturnType<typeof storeVerdict>>;
  let current: StartedRelease | undefined;

  before(async () => {
    receiver = await startWebhookReceiver();
    const release = await prepareRelease(PINNED_RELEASE.commit);
    dataDir = mkdtempSync(join(tmpdir(), 'docflow-upgrade-'));
    const env = { ...ENV, DOCFLOW_DATA_DIR: dataDir, DOCFLOW_ADMIN_KEY: newAdminKey() };
    data = await withRelease(release, env, `docflow ${PINNED_RELEASE.name}`, async (writer) => {
      const written = await writeDataset(writer.baseUrl, env.DOCFLOW_ADMIN_KEY, receiver);
      // An audit checkpoint of every document stream: the last document is the last stream made.
      await writer.proc.waitForLog(
        (l) => l.msg === 'audit checkpoint' && l.streams === DOCUMENTS.length,
        SETTLE_MS,
      );
      return written;
    });
    await withRelease(release, env, `docflow ${PINNED_RELEASE.name} again`, async (reader) => {
      reads = await readsOf(reader.baseUrl, data);
      earlier = await recordAll(reader.baseUrl, reads);
      earlierStore = await storeVerdict(release, dataDir);
    });
    current = await startRelease(REPO_ROOT, env, 'docflow (this checkout)');
    now = await recordAll(current.baseUrl, reads, earlier);
    nowStore = await storeVerdict(REPO_ROOT, dataDir);
  });
  after(async () => {
    if (current) await stopGracefully(current);
    await receiver?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it(`writes its data with ${PINNED_RELEASE.commit}, and reads it back whole`, (t) => {
    t.diagnostic(`previous release: ${PINNED_RELEASE.commit} (tests/upgrade/pinned-release.ts)`);
    t.diagnostic(`${reads.length} reads compared over ${earlier.size} subjects`);
    assert.equal(earlier.size, DOCUMENTS.length + OTHER_SUBJECTS.length);
    // The reference holds the data set, so that "reads the same" is not the same refusal twice.
    const read = (subject: string, key: string) => {
      const recorded = earlier.get(subject)?.get(key);
      assert.ok(recorded, `${subject}: no read ${key}`);
      return recorded as { status: number; body: any };
    };
    const doc = (name: string) => read(`document ${name}`, `GET /api/v2/docForm/${data.docs[name]}`);
    const codes = (name: string) => {
      const { state, step, iteration, status } = doc(name).body;
      return [state, step, iteration, status];
    };
    assert.deepEqual(Object.fromEntries(DOCUMENTS.filter((d) => d !== 'deleted').map((d) => [d, codes(d)])), {
      draft: [0, 0, 0, 1],
      pending: [1, 1, 1, 2],
      approved: [2, 1, 1, 4],
      'in-sign': [2, 1, 1, 2],
      rejected: [1, 1, 1, 5],
      restarted: [1, 1, 2, 2],
      suspended: [1, 1, 1, 3],
      cancelled: [1, 1, 1, 6],
      archived: [5, 0, 1, 4],
      blocked: [1, 1, 1, 7],
      'by-deputy': [2, 1, 1, 2],
      orphan: [0, 0, 0, 1],
      idempotent: [0, 0, 0, 1],
      invoice: [0, 0, 0, 1],
      'by-erin': [0, 0, 0, 1],
      last: [0, 0, 0, 1],
    });
    assert.equal(doc('deleted').status, 404);
    for (const name of DOCUMENTS.filter((d) => d !== 'deleted'))
      assert.equal(
        read(`document ${name}`, `GET /api/v2/docForm/${data.docs[name]}/verify`).body.valid,
        true,
        name,
      );
    const invoice = read(
      'document invoice',
      `GET /api/v2/docForm/${data.docs.invoice}?embed=docResponse,recoResult`,
    );
    assert.equal(invoice.body.recoStatus, 'done');
    assert.equal(invoice.body.recoData[0].validated, true);
    assert.equal(read('accounts', `GET /api/v2/person/${data.ids.erin}`).body.name_first, '[erased]');
    assert.equal(read('accounts', `GET /api/v2/person/${data.ids.carol}`).body.unit, 'Signing desk');
    assert.equal(read('accounts', `GET /api/admin/v1/accounts/${data.ids.frank}`).body.active, false);
    assert.equal(doc('approved').body.valuesByTags.subject, 'Approved with edits');
    assert.equal(
      read('forms', `GET /api/admin/v1/forms/${FORM.name}`).body.title,
      'Upgrade test, second version',
    );
    assert.equal(read('accounts', `as ${data.ids.erin} GET /api/v2/person/${data.ids.erin}`).status, 403);
    const inbox = read('views', `as ${data.ids.ghost} GET /api/v2/docForm/view/inbox`).body;
    assert.ok(
      inbox.some((d: { _id: string }) => d._id === data.docs.pending),
      'a deputy\u2019s inbox',
    );
    const found = read('search', 'GET /api/v2/docForm/view/all?pageSize=100&q=zephyrine').body;
    assert.deepEqual(
      found.map((d: { _id: string }) => d._id),
      [data.docs.invoice],
      'recognised text is found',
    );
    const log = read('webhooks', `GET /api/admin/v1/webhooks/${data.webhookId}/deliveries?pageSize=1000`);
    assert.ok(log.body.length >= DOCUMENTS.length, 'every document was delivered at least once');
  });

  for (const subject of [...DOCUMENTS.map((d) => `document ${d}`), ...OTHER_SUBJECTS])
    it(`${subject} reads the same`, { todo: KNOWN_DIFFERENCES[subject] }, () => {
      const { before: was, after: is } = differences(earlier, now, subject);
      assert.ok((earlier.get(subject)?.size ?? 0) > 0, `no read of ${subject}`);
      assert.deepEqual(is, was);
    });

  it('the store-wide audit (audit:verify-store) says the same of the store: every chain and the last checkpoint verify', () => {
    assert.equal(earlierStore.code, 0, JSON.stringify(earlierStore.verdict));
    assert.equal(earlierStore.verdict.valid, true);
    assert.equal(
      earlierStore.verdict.checkpoint?.streams,
      DOCUMENTS.length,
      'a checkpoint of the previous release',
    );
    assert.deepEqual(nowStore, earlierStore);
  });

  it('new writes work on the old data: answers (one by a deputy), a create with recognition, an idempotent replay, a webhook', async () => {
    const api = apiClient(current!.baseUrl);
    const as = (person: keyof Dataset['ids']) => ({ key: data.portalKey, runAs: data.ids[person] });
    const verified = async (id: string) =>
      (await api('GET', `/api/v2/docForm/${id}/verify`, { key: data.adminKey })).body.valid;
    async function answer(doc: string, by: keyof Dataset['ids'], taskstatus: number) {
      const read = await api('GET', `/api/v2/docForm/${data.docs[doc]}?embed=docResponse`, as(by));
      assert.equal(read.body?.docResponse?.assignee, data.ids.bob, `${by} sees bob's task on ${doc}`);
      return api('PUT', `/api/v2/docForm/${data.docs[doc]}/docResponse/${read.body.docResponse.respId}`, {
        ...as(by),
        body: { docResponse: { taskstatus, content: 'after the upgrade' } },
      });
    }

    const approved = await answer('pending', 'bob', 2);
    assert.equal(approved.status, 200, approved.text);
    assert.equal(approved.body.state, 2, 'approved: on to sign');
    // The deputy the previous release recorded still stands in for bob.
    const byDeputy = await answer('restarted', 'ghost', 2);
    assert.equal(byDeputy.status, 200, byDeputy.text);
    assert.ok(await verified(data.docs.pending!));
    assert.ok(await verified(data.docs.restarted!));

    const created = await createDoc(
      current!.baseUrl,
      data.portalKey,
      'invoice',
      { docForm: {}, files: [{ name: 'invoice-2.pdf', content: INVOICE_PDF, type: 'application/pdf' }] },
      { runAs: data.ids.alice },
    );
    assert.equal(created.status, 201, created.text);
    const id: string = created.body._id;
    const recognized = await eventually(
      () => api('GET', `/api/v2/docForm/${id}?embed=recoData`, as('alice')),
      (r) => r.body.recoStatus !== 'pending',
      SETTLE_MS,
    );
    assert.equal(recognized.body.recoStatus, 'done', recognized.text);
    const file = await fetch(
      `${current!.baseUrl}/api/v2/docForm/${id}/file/${created.body.filesList[0].id}`,
      {
        headers: { authorization: `Bearer ${data.adminKey}` },
      },
    );
    assert.deepEqual(Buffer.from(await file.arrayBuffer()), INVOICE_PDF);
    assert.ok(await verified(id));

    const replay = await createDoc(current!.baseUrl, data.portalKey, FORM.name, data.idempotent.parts, {
      runAs: data.ids.alice,
      headers: { 'idempotency-key': data.idempotent.key },
    });
    assert.equal(replay.status, 201, replay.text);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.body._id, data.idempotent.id);

    // The webhook the previous release registered delivers, signed with the secret it gave out.
    const delivered = await eventually(
      async () =>
        receiver.received.filter((d) => d.payload.data.documentId === id).map((d) => d.payload.type),
      (types) => types.includes('document.created') && types.includes('recognition.done'),
      SETTLE_MS,
    );
    assert.ok(delivered.includes('recognition.done'), JSON.stringify(delivered));
    assert.ok(receiver.received.every((d) => d.verified));
    const search = await eventually(
      () => api('GET', '/api/v2/docForm/view/all?q=zephyrine', { key: data.adminKey }),
      (r) => r.body.length === 2,
      SETTLE_MS,
    );
    assert.deepEqual(search.body.map((d: { _id: string }) => d._id).sort(), [data.docs.invoice, id].sort());
  });
});

describe(`work in flight when ${PINNED_RELEASE.name} stops is finished by this checkout`, {
  skip,
  timeout: UPGRADE_TIMEOUT_MS,
}, () => {
  it('webhook deliveries refused until the stop are delivered after the upgrade, in order, signed with the old secret', async () => {
    const receiver = await startWebhookReceiver();
    const dataDir = mkdtempSync(join(tmpdir(), 'docflow-upgrade-in-flight-'));
    const adminKey = newAdminKey();
    const env = { ...ENV, DOCFLOW_DATA_DIR: dataDir, DOCFLOW_ADMIN_KEY: adminKey };
    const deliveries = (api: Api, webhookId: string) =>
      api('GET', `/api/admin/v1/webhooks/${webhookId}/deliveries?pageSize=1000`, { key: adminKey });
    try {
      const release = await prepareRelease(PINNED_RELEASE.commit);
      const { docId, webhookId } = await withRelease(
        release,
        env,
        `docflow ${PINNED_RELEASE.name}`,
        async (old) => {
          const api = apiClient(old.baseUrl);
          await createPerson(api, adminKey, 'bob@example.com');
          const form = await api('PUT', `/api/admin/v1/forms/${FORM.name}`, { key: adminKey, body: FORM });
          assert.equal(form.status, 201, form.text);
          const hook = await api('POST', '/api/admin/v1/webhooks', {
            key: adminKey,
            body: {
              url: receiver.url,
              eventTypes: ['document.created', 'document.state_changed', 'task.opened'],
            },
          });
          assert.equal(hook.status, 201, hook.text);
          receiver.secret = hook.body.secret;
          receiver.failNext(Number.MAX_SAFE_INTEGER);
          const created = await createDoc(old.baseUrl, adminKey, FORM.name, {
            docForm: { valuesByTags: { subject: 'In flight at the upgrade' } },
            docResponse: { taskstatus: 100 },
          });
          assert.equal(created.status, 201, created.text);
          // Refused once, retried later: in the outbox of the release that stops.
          const refused = await eventually(
            () => deliveries(api, hook.body.id),
            (r) => r.body.some((d: { attempts: number }) => d.attempts >= 1),
            SETTLE_MS,
          );
          assert.ok(
            refused.body.every((d: { status: string }) => d.status === 'pending'),
            refused.text,
          );
          return { docId: created.body._id as string, webhookId: hook.body.id as string };
        },
      );
      receiver.failNext(0);
      await withRelease(REPO_ROOT, env, 'docflow (this checkout)', async (current) => {
        const log = await eventually(
          () => deliveries(apiClient(current.baseUrl), webhookId),
          (r) => r.body.length === 3 && r.body.every((d: { status: string }) => d.status === 'delivered'),
          SETTLE_MS,
        );
        assert.equal(log.body.length, 3, log.text);
        assert.ok(
          log.body.every((d: { status: string }) => d.status === 'delivered'),
          log.text,
        );
        const accepted = receiver.received.filter((d) => d.answered === 204);
        assert.deepEqual(
          accepted.filter((d) => d.payload.data.documentId === docId).map((d) => d.payload.type),
          ['document.created', 'document.state_changed', 'task.opened'],
        );
        const webhookIds = new Set(receiver.received.map((d) => d.webhookId));
        assert.equal(webhookIds.size, 3, 'a refused delivery is retried with its webhook-id');
        assert.ok(
          receiver.received.every((d) => d.verified),
          'signed with the secret the old release gave out',
        );
      });
    } finally {
      await receiver.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
