/**
 * Forms can be listed (issue 33): `GET /api/admin/v1/forms` for administrators, `GET /api/v2/forms`
 * (what the caller may create documents of) for everyone; and a form naming a participant that is no
 * person's account is refused when it is saved (422 pointing at the participant), not at the first create.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDoc, createPerson } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';

const form = (name: string, participants: string[][] = []) => ({
  name,
  title: `Form ${name}`,
  formsystype: 4,
  tags: { subject: 'string', lines: 'table' },
  ...(participants.length
    ? { workflow: { approval: { stages: participants.map((p) => ({ participants: p })) } } }
    : {}),
});

for (const factory of targets()) {
  describe(`forms list and participant check [${factory.name}]`, {
    skip: factory.skip,
    timeout: 300_000,
  }, () => {
    let target: Target;
    let api: Api;
    let admin: string;
    let portal: string;
    let bob: string;
    let portalId: string;

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      admin = target.adminKey;
      bob = await createPerson(api, admin, 'bob-forms@example.com');
      const svc = await api('POST', '/api/admin/v1/accounts', {
        key: admin,
        body: { kind: 'service', email: 'portal-forms@example.com', name_first: 'P', name_last: 'S' },
      });
      assert.equal(svc.status, 201, svc.text);
      portal = svc.body.apiKey;
      portalId = svc.body._id_sys;
    });
    after(() => target?.stop());

    it('the admin list holds every form by name, each as GET shows it, a new one right after its PUT', async () => {
      const put = await api('PUT', '/api/admin/v1/forms/listed-a', {
        key: admin,
        body: form('listed-a', [['bob-forms@example.com']]),
      });
      assert.equal(put.status, 201, put.text);
      const list = await api('GET', '/api/admin/v1/forms', { key: admin });
      assert.equal(list.status, 200, list.text);
      const names = list.body.map((f: { name: string }) => f.name);
      assert.deepEqual(names, [...names].sort());
      for (const name of ['contract', 'invoice', 'listed-a', 'memo']) assert.ok(names.includes(name), name);
      const listed = list.body.find((f: { name: string }) => f.name === 'listed-a');
      assert.deepEqual(listed, put.body);
      // The participant saved by its account's id, as the single read shows it.
      assert.deepEqual(listed.workflow.approval.stages[0].participants, [bob]);

      const refused = await api('GET', '/api/admin/v1/forms', { key: portal });
      assert.equal(refused.status, 403);
    });

    it('GET /api/v2/forms: every form a caller may create, with its fields, no workflow, for anyone', async () => {
      const asPerson = await api('GET', '/api/v2/forms', { key: portal, runAs: bob });
      assert.equal(asPerson.status, 200, asPerson.text);
      const memo = asPerson.body.find((f: { name: string }) => f.name === 'memo');
      assert.deepEqual(memo, {
        name: 'memo',
        title: 'Internal memo',
        formsystype: 1,
        tags: { subject: 'string', body: 'string', lines: 'table' },
      });
      assert.ok(asPerson.body.every((f: object) => !('workflow' in f) && !('recognition' in f)));
      const asService = await api('GET', '/api/v2/forms', { key: portal });
      assert.deepEqual(asService.body, asPerson.body);
      assert.equal((await api('GET', '/api/v2/forms')).status, 401);
    });

    it('a participant that is no account, or a service account: 422 naming each, nothing saved', async () => {
      const res = await api('PUT', '/api/admin/v1/forms/orphan', {
        key: admin,
        body: form('orphan', [['bob-forms@example.com', 'nobody-here@example.com'], [portalId]]),
      });
      assert.equal(res.status, 422, res.text);
      assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
      assert.deepEqual(res.body.errors, [
        {
          pointer: 'body.workflow.approval.stages.0.participants.1',
          message: 'no account nobody-here@example.com',
        },
        {
          pointer: 'body.workflow.approval.stages.1.participants.0',
          message: `${portalId} is a service account`,
        },
      ]);
      assert.equal((await api('GET', '/api/admin/v1/forms/orphan', { key: admin })).status, 404);
      const names = (await api('GET', '/api/admin/v1/forms', { key: admin })).body.map(
        (f: { name: string }) => f.name,
      );
      assert.ok(!names.includes('orphan'));

      // Known participants only: saved, and a document's workflow starts from it at once.
      const saved = await api('PUT', '/api/admin/v1/forms/orphan', {
        key: admin,
        body: form('orphan', [['bob-forms@example.com']]),
      });
      assert.equal(saved.status, 201, saved.text);
      const created = await createDoc(target.baseUrl, admin, 'orphan', { docResponse: { taskstatus: 100 } });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.headers.get('x-error'), null);
      assert.equal(created.body.state, 1);
    });
  });
}
