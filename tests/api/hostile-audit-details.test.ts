/**
 * What an auditor reads of a document (issue 29, finding 11): `?asOf=` at the document's own
 * `_meta._created` is its first revision, a create's `traceparent` shows in its history, and an
 * account holding svcAuditR lists in view `all` every document it can read.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createDocflowClient, type DocflowClient } from '@docflow/client';
import { setUpClientSystem } from '../support/client';
import { eventually } from '../support/documents';
import { type Target, targets } from '../support/targets';

for (const factory of targets()) {
  describe(`hostile audit details [${factory.name}]`, { skip: factory.skip, timeout: 300_000 }, () => {
    let target: Target;
    let admin: DocflowClient;
    let author: DocflowClient;
    let bob: DocflowClient;

    before(async () => {
      target = await factory.start();
      const system = await setUpClientSystem(target.baseUrl, target.adminKey, {
        persons: ['author@example.com', 'bob@example.com'],
        form: 'audited',
        approver: 'bob@example.com',
      });
      admin = system.admin;
      author = system.service.as('author@example.com');
      bob = system.service.as('bob@example.com');
    });
    after(() => target?.stop());

    it('asOf equal to the document’s own _meta._created answers revision 1', async () => {
      const doc = await author.createDocument('audited', {
        docForm: { valuesByTags: { subject: 'as of' } },
        docResponse: { taskstatus: 100 },
      });
      const created = doc._meta._created!;
      const { data, response } = await author.api.GET('/api/v2/docForm/{id}', {
        params: { path: { id: doc._id }, query: { asOf: created } },
      });
      assert.equal(response.status, 200);
      assert.equal(data!._meta!._rev, 1);
      assert.equal(data!._meta!._created, created);
      assert.equal(data!._meta!._lastmodified, created, 'the revision shows the instant asked for');
    });

    it('the traceparent sent on a create is the traceId of history entry 1', async () => {
      const traceId = randomBytes(16).toString('hex');
      const traceparent = `00-${traceId}-${randomBytes(8).toString('hex')}-01`;
      const traced = createDocflowClient({
        baseUrl: target.baseUrl,
        apiKey: target.adminKey,
        fetch: (request) => {
          request.headers.set('traceparent', traceparent);
          return fetch(request);
        },
      });
      const doc = await traced.createDocument('audited', {
        docForm: { valuesByTags: { subject: 'traced' } },
      });
      const res = await fetch(`${target.baseUrl}/api/v2/docForm/${doc._id}/history`, {
        headers: { authorization: `Bearer ${target.adminKey}` },
      });
      const [first] = (await res.json()) as { rev: number; traceId?: string }[];
      assert.equal(first!.rev, 1);
      assert.equal(first!.traceId, traceId);
    });

    it('an svcAuditR account lists in view all every document it can read', async () => {
      for (const [client, subject] of [
        [author, 'a'],
        [bob, 'b'],
        [author, 'c'],
      ] as const)
        await client.createDocument('audited', { docForm: { valuesByTags: { subject } } });
      const { data: account } = await admin.api.POST('/api/admin/v1/accounts', {
        body: {
          kind: 'service',
          email: 'auditor@example.com',
          name_first: 'A',
          name_last: 'R',
          roles: ['svcAuditR'],
        },
      });
      const auditor = createDocflowClient({ baseUrl: target.baseUrl, apiKey: account!.apiKey! });
      const last = await author.createDocument('audited', { docForm: { valuesByTags: { subject: 'last' } } });
      const everything = await eventually(
        () => admin.viewPage('all', { pageSize: 100 }),
        (p) => p.items.some((d) => d._id === last._id),
      );
      const readable = [];
      for (const d of everything.items) {
        const { response } = await auditor.api.GET('/api/v2/docForm/{id}', {
          params: { path: { id: d._id } },
        });
        readable.push(response.status);
      }
      assert.ok(
        readable.every((s) => s === 200),
        'the auditor reads every document',
      );
      const listed = await auditor.viewPage('all', { pageSize: 100 });
      assert.equal(listed.total, everything.total);
      assert.deepEqual(
        listed.items.map((d) => d._id),
        everything.items.map((d) => d._id),
      );
    });
  });
}
