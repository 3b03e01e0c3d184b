/**
 * `Idempotency-Key` on create and on managing / answering a document, in every mode (distributed: the
 * retry goes to another gateway): a retry with the same key and body answers the first answer again and
 * writes nothing, while the first still runs it is 409 with Retry-After, another body is 422, and the
 * answer survives a restart of the document service.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createDocflowClient, type DocflowClient, DocflowProblem } from '@docflow/client';
import { refusal, setUpClientSystem } from '../support/client';
import { eventually } from '../support/documents';
import { type DistributedTarget, startEmbedded, type Target, targets } from '../support/targets';

// Fixed data directories (removed at the end), so a target can be stopped and started on its data.
const dataDirs = [mkdtempSync(join(tmpdir(), 'docflow-idem-')), mkdtempSync(join(tmpdir(), 'docflow-idem-'))];
const factories = [
  targets({ dataDir: dataDirs[0] })[0]!,
  targets({ gatewayInstances: 2, dataDir: dataDirs[1] })[1]!,
];
after(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

for (const factory of factories) {
  describe(`Idempotency-Key [${factory.name}]`, { skip: factory.skip, timeout: 300_000 }, () => {
    let target: Target;
    let portalKey: string;
    let seq = 0;

    /** The service account acting as `user`, through gateway `gateway` (the second, where there is one). */
    const client = (user: string, gateway = 0) => {
      const urls = (target as Partial<DistributedTarget>).gatewayUrls ?? [target.baseUrl];
      return createDocflowClient({ baseUrl: urls[gateway % urls.length]!, apiKey: portalKey, runAs: user });
    };
    /** A person of their own per case, so their `mydocs` holds only what the case made. */
    async function newUser(): Promise<string> {
      const admin = createDocflowClient({ baseUrl: target.baseUrl, apiKey: target.adminKey });
      const email = `user${++seq}@example.com`;
      await admin.api.POST('/api/admin/v1/accounts', {
        body: { kind: 'person', email, name_first: 'U', name_last: String(seq) },
      });
      return email;
    }
    /** How many documents `user` authored: counted once a document made after them shows in the view. */
    async function authored(user: string): Promise<number> {
      const c = client(user);
      const sentinel = await c.createDocument('idem', { docForm: { valuesByTags: { subject: 'sentinel' } } });
      const page = await eventually(
        () => c.viewPage('mydocs', { pageSize: 100 }),
        (p) => p.items.some((d) => d._id === sentinel._id),
      );
      assert.ok(
        page.items.some((d) => d._id === sentinel._id),
        'the view caught up',
      );
      return page.total - 1;
    }
    const raw = (c: DocflowClient, key: string, subject: string, fileText: string) =>
      c.api.POST('/api/v2/docForm/form/{formName}', {
        params: { path: { formName: 'idem' }, header: { 'Idempotency-Key': key } },
        body: {},
        bodySerializer: () => {
          const form = new FormData();
          form.append('docForm', JSON.stringify({ valuesByTags: { subject } }));
          form.append('files', new Blob([fileText]), 'a.txt');
          return form as never;
        },
      });

    before(async () => {
      target = await factory.start();
      const system = await setUpClientSystem(target.baseUrl, target.adminKey, {
        persons: ['bob@example.com'],
        form: 'idem',
        approver: 'bob@example.com',
      });
      portalKey = system.serviceKey;
    });
    after(() => target?.stop());

    it('create: a retry (another gateway, another multipart boundary) answers the first answer and creates nothing', async () => {
      const user = await newUser();
      const first = await raw(client(user), 'create-1', 'Plan', 'the file');
      assert.equal(first.response.status, 201);
      assert.equal(first.response.headers.get('idempotent-replayed'), null);
      const again = await raw(client(user, 1), 'create-1', 'Plan', 'the file');
      assert.equal(again.response.status, 201);
      assert.equal(again.response.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(again.data, first.data);
      // The key is the principal's own: another user's same key is another request.
      const other = await newUser();
      const theirs = await raw(client(other), 'create-1', 'Plan', 'the file');
      assert.notEqual(theirs.data!._id, first.data!._id);
      assert.equal(await authored(user), 1);
    });

    it('create: the same key with another body (values or file bytes) is 422 and creates nothing', async () => {
      const user = await newUser();
      await raw(client(user), 'create-2', 'Plan', 'the file');
      for (const [subject, file] of [
        ['Other', 'the file'],
        ['Plan', 'the other file'],
      ]) {
        const e = await refusal(raw(client(user, 1), 'create-2', subject!, file!));
        assert.equal(e.status, 422);
      }
      assert.equal(await authored(user), 1);
    });

    it('manage and answer: a retry answers the first answer and moves nothing; another body is 422', async () => {
      const authorEmail = await newUser();
      const author = client(authorEmail);
      const bob = client('bob@example.com');
      const doc = await author.createDocument('idem', { docForm: { valuesByTags: { subject: 'wf' } } });
      const manage = (c: DocflowClient, taskstatus: 100 | 101) =>
        c.api.POST('/api/v2/docForm/{id}/docResponse', {
          params: { path: { id: doc._id }, header: { 'Idempotency-Key': 'manage-1' } },
          body: { docResponse: { taskstatus } },
        });
      const started = await manage(author, 100);
      const repeated = await manage(client(authorEmail, 1), 100);
      assert.equal(repeated.response.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(repeated.data, started.data);
      assert.equal((await refusal(manage(author, 101))).status, 422);

      const { data: task } = await bob.api.GET('/api/v2/docForm/{id}', {
        params: { path: { id: doc._id }, query: { embed: 'docResponse' } },
      });
      const answer = () =>
        bob.api.PUT('/api/v2/docForm/{id}/docResponse/{respId}', {
          params: {
            path: { id: doc._id, respId: task!.docResponse!.respId! },
            header: { 'Idempotency-Key': '"answer-1"' },
          },
          body: { docResponse: { taskstatus: 3, content: 'ok' } },
        });
      const answered = await answer();
      const again = await answer(); // without the key this would be 422: the task is answered already
      assert.equal(again.response.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(again.data, answered.data);
      const { data: now } = await author.api.GET('/api/v2/docForm/{id}', {
        params: { path: { id: doc._id } },
      });
      assert.equal(now!._meta!._rev, answered.data!._meta._rev, 'the replays wrote nothing');
    });

    it('while the first request still runs, a retry gets 409 with Retry-After; then the first answer', async () => {
      const user = await newUser();
      const input = { docForm: { valuesByTags: { subject: 'slow' } }, idempotencyKey: 'create-3' };
      const head = new Uint8Array(64 * 1024).fill(97);
      const tail = new TextEncoder().encode('end');
      /** A file that sends its head, then waits to be released: its request stays running until then. */
      function heldFile() {
        let release!: () => void;
        const gate = new Promise<void>((r) => {
          release = r;
        });
        async function* content() {
          yield head;
          await gate;
          yield tail;
        }
        return { release, content: content() };
      }
      // Two held requests with one key, through two gateways: whichever comes second is answered at
      // once (409), while the first cannot answer before it is released.
      const held = [heldFile(), heldFile()];
      const sent = held.map((h, gateway) =>
        client(user, gateway)
          .createDocument('idem', { ...input, files: [{ name: 's.bin', content: h.content }] })
          .then(
            (doc) => ({ doc, error: undefined }),
            (error: unknown) => ({ doc: undefined, error }),
          ),
      );
      const early = await Promise.race(sent);
      assert.ok(early.error instanceof DocflowProblem, String(early.error ?? 'answered before release'));
      assert.equal(early.error.status, 409);
      assert.equal(early.error.retryAfterSeconds, 1);
      for (const h of held) h.release();
      const created = (await Promise.all(sent)).map((r) => r.doc).filter((d) => d !== undefined);
      assert.equal(created.length, 1, 'one of the two ran');
      const replayed = await client(user, 1).createDocument('idem', {
        ...input,
        files: [{ name: 's.bin', content: new Uint8Array([...head, ...tail]) }],
      });
      assert.deepEqual(replayed, created[0]);
      assert.equal(await authored(user), 1);
    });

    it('a key answered before a restart of the document service is answered the same after it', async () => {
      const user = await newUser();
      const first = await raw(client(user), 'create-4', 'Restart', 'kept');
      assert.equal(first.response.status, 201);
      if (factory.name === 'embedded') {
        await target.stop();
        target = await startEmbedded({ dataDir: target.dataDir, adminKey: target.adminKey });
      } else await (target as DistributedTarget).restart('document');
      const again = await raw(client(user, 1), 'create-4', 'Restart', 'kept');
      assert.equal(again.response.status, 201);
      assert.equal(again.response.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(again.data, first.data);
      assert.equal(await authored(user), 1);
    });
  });
}
