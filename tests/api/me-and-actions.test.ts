/**
 * "What may I do" (issue 32): `GET /api/v2/me` for a service account, a person acting through one, and
 * an auditor; `embed=actions` on a document for its author, a participant, an auditor, an
 * administrator and a stranger — and each list checked against the server itself: every management
 * move and answer left out is refused when sent, and one that is listed is accepted. In every mode.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ANSWER_TASK_STATUSES, MANAGE_TASK_STATUSES } from '@docflow/contracts';
import { createDoc, createPerson } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';

const NONE = {
  createDocuments: true,
  administer: false,
  actOnAnyDocument: false,
  auditAnyDocument: false,
  manageOthersWorkflows: false,
  deleteOthersDocuments: false,
};

for (const factory of targets()) {
  describe(`me and document actions [${factory.name}]`, { skip: factory.skip, timeout: 300_000 }, () => {
    let target: Target;
    let api: Api;
    let svc: string; // holds svcAuditR only: users act through it with svc-run-as
    let svcId: string;
    const u: Record<string, string> = {};
    const as = (user: string) => ({ key: svc, runAs: u[user] });
    const actionsOf = async (id: string, user: string) => {
      const res = await api('GET', `/api/v2/docForm/${id}?embed=actions`, as(user));
      assert.equal(res.status, 200, res.text);
      return res.body.actions;
    };
    /** Each management move the list leaves out, sent: none changes the document. */
    async function refusedUnlisted(id: string, user: string, listed: number[]) {
      const before = (await api('GET', `/api/v2/docForm/${id}`, as(user))).body._rev;
      for (const taskstatus of MANAGE_TASK_STATUSES.filter((s) => !listed.includes(s))) {
        const res = await api('POST', `/api/v2/docForm/${id}/docResponse`, {
          ...as(user),
          body: { docResponse: { taskstatus } },
        });
        assert.ok([403, 404, 422].includes(res.status), `${user} ${taskstatus}: ${res.status} ${res.text}`);
      }
      assert.equal((await api('GET', `/api/v2/docForm/${id}`, as(user))).body._rev, before);
    }

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      const admin = target.adminKey;
      for (const name of ['author', 'bob', 'stranger'])
        u[name] = await createPerson(api, admin, `${name}@example.com`);
      u.auditor = await createPerson(api, admin, 'auditor@example.com', ['svcAuditR']);
      const s = await api('POST', '/api/admin/v1/accounts', {
        key: admin,
        body: {
          kind: 'service',
          email: 'portal@example.com',
          name_first: 'P',
          name_last: 'S',
          roles: ['svcAuditR'],
        },
      });
      assert.equal(s.status, 201, s.text);
      svc = s.body.apiKey;
      svcId = s.body._id_sys;
      const form = {
        name: 'act',
        title: 'Actions',
        formsystype: 9,
        tags: {},
        workflow: { approval: { stages: [{ participants: ['bob@example.com'] }] } },
      };
      assert.equal((await api('PUT', '/api/admin/v1/forms/act', { key: admin, body: form })).status, 201);
    });
    after(() => target?.stop());

    it('/me: the administrator service account, with every capability and no run-as', async () => {
      const me = await api('GET', '/api/v2/me', { key: target.adminKey });
      assert.equal(me.status, 200, me.text);
      assert.equal(me.body.kind, 'service');
      assert.equal(me.body.actingThrough, null);
      assert.ok(me.body.roles.includes('svcAdminSysRW'));
      assert.deepEqual(me.body.capabilities, {
        createDocuments: true,
        administer: true,
        actOnAnyDocument: true,
        auditAnyDocument: true,
        manageOthersWorkflows: true,
        deleteOthersDocuments: true,
      });
    });

    it('/me through svc-run-as: the person, the roles both hold, the service account named', async () => {
      const me = await api('GET', '/api/v2/me', as('author'));
      assert.equal(me.status, 200, me.text);
      assert.deepEqual(
        { ...me.body },
        {
          _id_sys: u.author,
          kind: 'person',
          email: 'author@example.com',
          name_first: 'author',
          name_last: 'Test',
          roles: [],
          actingThrough: { serviceAccount: svcId },
          capabilities: NONE,
        },
      );
      const auditor = await api('GET', '/api/v2/me', as('auditor'));
      assert.deepEqual(auditor.body.roles, ['svcAuditR']);
      assert.deepEqual(auditor.body.capabilities, { ...NONE, auditAnyDocument: true });
      // An administrator's admin routes answer what /me says: the auditor is refused them.
      assert.equal((await api('GET', '/api/admin/v1/accounts', as('auditor'))).status, 403);
    });

    it('/me without a key is 401', async () => {
      assert.equal((await api('GET', '/api/v2/me')).status, 401);
    });

    it('a draft: the author may start it and delete it; the rest is refused when sent', async () => {
      const created = await createDoc(target.baseUrl, svc, 'act', { docForm: {} }, { runAs: u.author });
      assert.equal(created.status, 201, created.text);
      const id = created.body._id;
      const actions = await actionsOf(id, 'author');
      assert.deepEqual(actions.answer, null);
      assert.ok(actions.manage.includes(100), `start approval listed: ${actions.manage}`);
      assert.ok(actions.manage.includes(111), `delete listed: ${actions.manage}`);
      assert.ok(!actions.manage.includes(101), 'nothing to suspend in a draft');
      assert.deepEqual(
        {
          history: actions.history,
          verify: actions.verify,
          export: actions.export,
          download: actions.download,
        },
        { history: true, verify: true, export: true, download: false },
      );
      await refusedUnlisted(id, 'author', actions.manage);
    });

    it('in approval: the participant may answer with what the task takes, and manage nothing', async () => {
      const created = await createDoc(
        target.baseUrl,
        svc,
        'act',
        {
          docForm: {},
          docResponse: { taskstatus: 100 },
          files: [{ name: 'a.txt', content: 'a', type: 'text/plain' }],
        },
        { runAs: u.author },
      );
      assert.equal(created.status, 201, created.text);
      const id = created.body._id;

      const bob = await actionsOf(id, 'bob');
      assert.deepEqual(bob.manage, []);
      assert.deepEqual(bob.answer?.taskstatus, [2, 3, 4]);
      assert.equal(bob.download, true);
      assert.equal(bob.validateRecoData, false, 'nothing recognised to validate');
      await refusedUnlisted(id, 'bob', []);
      for (const taskstatus of ANSWER_TASK_STATUSES.filter((s) => !bob.answer.taskstatus.includes(s))) {
        const res = await api('PUT', `/api/v2/docForm/${id}/docResponse/${bob.answer.respId}`, {
          ...as('bob'),
          body: { docResponse: { taskstatus, content: 'x' } },
        });
        assert.ok([400, 422].includes(res.status), `bob answers ${taskstatus}: ${res.status}`);
      }

      const author = await actionsOf(id, 'author');
      assert.equal(author.answer, null);
      for (const move of [101, 103, 104, 110, 111])
        assert.ok(author.manage.includes(move), `${move}: ${author.manage}`);
      assert.ok(!author.manage.includes(100), 'approval runs already');
      await refusedUnlisted(id, 'author', author.manage);

      // The auditor reads, exports and verifies, and may change nothing.
      const auditor = await actionsOf(id, 'auditor');
      assert.deepEqual({ manage: auditor.manage, answer: auditor.answer }, { manage: [], answer: null });
      assert.equal(auditor.validateRecoData, false);
      await refusedUnlisted(id, 'auditor', []);

      // The administrator service account manages every document, delete included.
      const admin = await api('GET', `/api/v2/docForm/${id}?embed=actions&fields=_id`, {
        key: target.adminKey,
      });
      assert.equal(admin.status, 200, admin.text);
      assert.ok(admin.body.actions.manage.includes(111), admin.text);

      // A listed answer is accepted; then bob has no open task left to answer.
      const answered = await api('PUT', `/api/v2/docForm/${id}/docResponse/${bob.answer.respId}`, {
        ...as('bob'),
        body: { docResponse: { taskstatus: 2, content: 'fine' } },
      });
      assert.equal(answered.status, 200, answered.text);
      assert.equal((await actionsOf(id, 'bob')).answer, null);

      // A stranger sees no document, so no actions either.
      assert.equal((await api('GET', `/api/v2/docForm/${id}?embed=actions`, as('stranger'))).status, 404);
    });
  });
}
