/**
 * ETag and conditional requests on a document, in every mode: GET answers the revision as a strong
 * ETag, If-None-Match gives 304 while it holds, and If-Match on manage, answer and recoData refuses
 * with 412 (changing nothing) once the document moved on; without the header nothing is checked.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DocflowClient } from '@docflow/client';
import { refusal, setUpClientSystem } from '../support/client';
import { type Target, targets } from '../support/targets';

for (const factory of targets()) {
  describe(`conditional requests [${factory.name}]`, { skip: factory.skip, timeout: 300_000 }, () => {
    let target: Target;
    let author: DocflowClient;
    let bob: DocflowClient;

    const read = (client: DocflowClient, id: string, ifNoneMatch?: string) =>
      client.api.GET('/api/v2/docForm/{id}', {
        params: { path: { id }, query: { embed: 'docResponse' }, header: { 'If-None-Match': ifNoneMatch } },
      });
    const manage = (id: string, taskstatus: 100 | 101 | 102, ifMatch?: string) =>
      author.api.POST('/api/v2/docForm/{id}/docResponse', {
        params: { path: { id }, header: { 'If-Match': ifMatch } },
        body: { docResponse: { taskstatus } },
      });
    before(async () => {
      target = await factory.start();
      const { service } = await setUpClientSystem(target.baseUrl, target.adminKey, {
        persons: ['author@example.com', 'bob@example.com'],
        form: 'cond',
        approver: 'bob@example.com',
      });
      author = service.as('author@example.com');
      bob = service.as('bob@example.com');
    });
    after(() => target?.stop());

    it('GET answers the revision as a strong ETag; If-None-Match gives 304 until it moves on', async () => {
      const doc = await author.createDocument('cond', { docForm: { valuesByTags: { subject: 'a' } } });
      const first = await read(author, doc._id);
      const etag = first.response.headers.get('etag');
      assert.equal(etag, `"${first.data!._meta!._rev}"`);
      const same = await read(author, doc._id, etag!);
      assert.equal(same.response.status, 304);
      assert.equal(same.response.headers.get('etag'), etag);
      assert.equal(same.data, undefined);
      assert.equal((await read(author, doc._id, `W/${etag}`)).response.status, 304, 'weak comparison');
      await manage(doc._id, 100);
      const moved = await read(author, doc._id, etag!);
      assert.equal(moved.response.status, 200);
      assert.notEqual(moved.response.headers.get('etag'), etag);
    });

    it('If-Match on manage: 412 for a stale or bogus tag, nothing changed; the current tag or none acts', async () => {
      const doc = await author.createDocument('cond', { docForm: { valuesByTags: { subject: 'b' } } });
      const etag = `"${doc._meta._rev}"`;
      await manage(doc._id, 100, etag); // current: starts approval
      for (const stale of [etag, '"bogus"', 'bogus']) {
        const e = await refusal(manage(doc._id, 101, stale));
        assert.equal(e.status, 412);
        assert.match(e.headers.get('content-type') ?? '', /problem\+json/);
      }
      const now = await read(author, doc._id);
      assert.equal(now.data!.status, 2, 'still in progress: the refused suspend changed nothing');
      const { data: suspended } = await manage(doc._id, 101, now.response.headers.get('etag')!);
      assert.equal(suspended!.status, 3);
      const { data: resumed } = await manage(doc._id, 102);
      assert.equal(resumed!.status, 2, 'no If-Match: acts whatever the revision');
    });

    it('If-Match on answering a task: 412 once the document moved on; the task stays open', async () => {
      const doc = await author.createDocument('cond', {
        docForm: { valuesByTags: { subject: 'c' } },
        docResponse: { taskstatus: 100 },
      });
      const task = await read(bob, doc._id);
      const etag = task.response.headers.get('etag')!;
      const respId = task.data!.docResponse!.respId!;
      await manage(doc._id, 101); // suspended: the document moves on
      await manage(doc._id, 102);
      const answer = (ifMatch: string) =>
        bob.api.PUT('/api/v2/docForm/{id}/docResponse/{respId}', {
          params: { path: { id: doc._id, respId }, header: { 'If-Match': ifMatch } },
          body: { docResponse: { taskstatus: 3, content: 'ok' } },
        });
      assert.equal((await refusal(answer(etag))).status, 412);
      const again = await read(bob, doc._id);
      assert.equal(again.data!.docResponse!.respId, respId, 'the task is still open');
      const { data: done } = await answer(again.response.headers.get('etag')!);
      assert.equal(done!.status, 4);
    });

    it('If-Match on validating recoData: a stale tag is 412 before anything else is looked at', async () => {
      const doc = await author.createDocument('cond', { docForm: { valuesByTags: { subject: 'd' } } });
      const validate = (ifMatch: string) =>
        author.api.PUT('/api/v2/docForm/{id}/recoData/{recoId}', {
          params: {
            path: { id: doc._id, recoId: '0123456789abcdef01234567' },
            header: { 'If-Match': ifMatch },
          },
          body: { valuesByTags: { subject: 'x' } },
        });
      assert.equal((await refusal(validate(`"${doc._meta._rev + 1}"`))).status, 412);
      // The current tag passes the precondition: the request then meets the missing entry.
      assert.equal((await refusal(validate(`"${doc._meta._rev}"`))).status, 404);
    });
  });
}
