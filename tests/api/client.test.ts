/**
 * A client system's whole flow through `@docflow/client`, in every mode: the admin creates a person and
 * a service account, the service account (acting as users) creates a document with a file streamed
 * from a Node stream, reads it and its file, starts and answers the workflow, meets a refusal as a
 * `DocflowProblem`, and pages through a view with the pagination helper.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { DocflowClient } from '@docflow/client';
import { refusal, setUpClientSystem } from '../support/client';
import { eventually } from '../support/documents';
import { type Target, targets } from '../support/targets';

for (const factory of targets()) {
  describe(`typed client [${factory.name}]`, { skip: factory.skip, timeout: 300_000 }, () => {
    let target: Target;
    let service: DocflowClient;
    const users: Record<string, string> = {};

    before(async () => {
      target = await factory.start();
      const system = await setUpClientSystem(target.baseUrl, target.adminKey, {
        persons: ['author@example.com', 'bob@example.com'],
        form: 'cl',
        approver: 'bob@example.com',
      });
      service = system.service;
      users.author = system.ids['author@example.com']!;
      users.bob = system.ids['bob@example.com']!;
    });
    after(() => target?.stop());

    it('creates with a streamed file, reads, downloads, manages and answers as the users', async () => {
      const author = service.as(users.author!);
      const bob = service.as('bob@example.com');
      const bytes = Buffer.from('the plan, in two chunks');
      const created = await author.createDocument('cl', {
        docForm: { valuesByTags: { subject: 'Plan' }, _tags: ['client'] },
        files: [
          {
            name: 'plan.txt',
            type: 'text/plain',
            content: Readable.from([bytes.subarray(0, 8), bytes.subarray(8)]),
          },
        ],
      });
      assert.equal(created.author, users.author);
      assert.equal(created.filesList.length, 1);

      const { data: read } = await author.api.GET('/api/v2/docForm/{id}', {
        params: { path: { id: created._id_web }, query: { embed: 'filesList' } },
      });
      assert.equal(read!._id, created._id);
      assert.deepEqual(read!.valuesByTags, { subject: 'Plan' });
      const { data: file } = await author.api.GET('/api/v2/docForm/{id}/file/{fileId}', {
        params: { path: { id: created._id, fileId: created.filesList[0]!.id } },
        parseAs: 'text',
      });
      assert.equal(file, bytes.toString());

      // Not yet started: bob has no task and may not read it; the refusal is a typed exception.
      const refused = await refusal(
        bob.api.GET('/api/v2/docForm/{id}', { params: { path: { id: created._id } } }),
      );
      assert.equal(refused.status, 404);
      assert.match(refused.problem.title, /./);

      const { data: started } = await author.api.POST('/api/v2/docForm/{id}/docResponse', {
        params: { path: { id: created._id } },
        body: { docResponse: { taskstatus: 100 } },
      });
      assert.equal(started!.state, 1, 'in approval');
      const { data: task } = await bob.api.GET('/api/v2/docForm/{id}', {
        params: { path: { id: created._id }, query: { embed: 'docResponse' } },
      });
      const respId = task!.docResponse!.respId!;
      const { data: answered } = await bob.api.PUT('/api/v2/docForm/{id}/docResponse/{respId}', {
        params: { path: { id: created._id, respId } },
        body: { docResponse: { taskstatus: 3, content: 'approved' } },
      });
      assert.equal(answered!.status, 4, 'completed: approval was the only phase');
    });

    it('pages through a view: viewAll reads every page until svc-total-count', async () => {
      const writer = service.as('bob@example.com');
      const ids = new Set<string>();
      for (let i = 0; i < 5; i++)
        ids.add(
          (await writer.createDocument('cl', { docForm: { valuesByTags: { subject: `n${i}` }, _tags: [] } }))
            ._id,
        );
      const page = await eventually(
        () => writer.viewPage('mydocs', { pageSize: 2 }),
        (p) => p.total === ids.size,
      );
      assert.equal(page.total, ids.size);
      assert.equal(page.items.length, 2);
      const listed: string[] = [];
      for await (const doc of writer.viewAll('mydocs', { pageSize: 2 })) listed.push(doc._id);
      assert.deepEqual(new Set(listed), ids);
      assert.equal(listed.length, ids.size, 'no document twice');
    });
  });
}
