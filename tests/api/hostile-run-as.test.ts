/**
 * Run-as never adds rights (issue 29, finding 10; DESIGN.md "Run-as"): a service account holding no
 * role could run as an administrator person and create itself an account with every role. Through
 * `svc-run-as` the person's document rights apply, but an administrative role counts only where the
 * service account holds it too.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ROLES } from '@docflow/contracts';
import { createDoc, createPerson, eventually } from '../support/documents';
import { type Api, type ApiResponse, apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';

function assertProblem(res: ApiResponse, status: number, detail?: RegExp) {
  assert.equal(res.status, status, res.text);
  assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
  if (detail) assert.match(res.body.detail, detail);
}

const newService = (email: string, roles: string[] = []) => ({
  kind: 'service',
  email,
  name_first: 'Svc',
  name_last: email.split('@')[0],
  roles,
});

for (const factory of targets()) {
  describe(`run-as never adds rights [${factory.name}]`, { skip: factory.skip, timeout: 180_000 }, () => {
    let target: Target;
    let api: Api;
    let admin: string;
    /** A service account holding no role at all: what any client has. */
    let anyKey: string;
    /** A service account holding svcAdminSysRW only. */
    let sysKey: string;
    /** A person holding every role, and a person holding svcAdminSysRW. */
    let boss: string;
    let sysop: string;
    let alice: string;
    /** A document of bob's, whom neither boss nor alice may read by authorship or participation. */
    let bobsDoc: string;

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      admin = target.adminKey;
      boss = await createPerson(api, admin, 'boss@example.com', [...ROLES]);
      sysop = await createPerson(api, admin, 'sysop@example.com', ['svcAdminSysRW']);
      alice = await createPerson(api, admin, 'alice@example.com');
      const bob = await createPerson(api, admin, 'bob@example.com');
      const any = await api('POST', '/api/admin/v1/accounts', {
        key: admin,
        body: newService('portal@example.com'),
      });
      assert.equal(any.status, 201, any.text);
      anyKey = any.body.apiKey;
      const sys = await api('POST', '/api/admin/v1/accounts', {
        key: admin,
        body: newService('hr-sync@example.com', ['svcAdminSysRW']),
      });
      assert.equal(sys.status, 201, sys.text);
      sysKey = sys.body.apiKey;
      const doc = await createDoc(
        target.baseUrl,
        anyKey,
        'memo',
        { docForm: { _tags: ['bob'] } },
        { runAs: bob },
      );
      assert.equal(doc.status, 201, doc.text);
      bobsDoc = doc.body._id;
    });
    after(() => target?.stop());

    it('a role-less service account running as an administrator cannot create accounts, forms or webhooks (403)', async () => {
      const asBoss = { key: anyKey, runAs: boss };
      assertProblem(
        await api('POST', '/api/admin/v1/accounts', {
          ...asBoss,
          body: newService('takeover@example.com', [...ROLES]),
        }),
        403,
        /svcAdminSysRW/,
      );
      assertProblem(
        await api('PUT', '/api/admin/v1/forms/takeover', {
          ...asBoss,
          body: { name: 'takeover', title: 'T', formsystype: 1, tags: { subject: 'string' } },
        }),
        403,
      );
      assertProblem(
        await api('POST', '/api/admin/v1/webhooks', {
          ...asBoss,
          body: { url: 'https://hooks.example.com/x', eventTypes: ['document.created'] },
        }),
        403,
      );
      assertProblem(await api('GET', '/api/admin/v1/accounts', asBoss), 403);
      assertProblem(
        await api('POST', '/api/v2/person', { ...asBoss, body: { _id_sys: alice, unit: 'x' } }),
        403,
      );
      // Nothing was created.
      const accounts = await api('GET', '/api/admin/v1/accounts', { key: admin });
      assert.equal(accounts.status, 200, accounts.text);
      assert.ok(!JSON.stringify(accounts.body).includes('takeover@example.com'));
    });

    it('nor read another author\u2019s document through svcAdminDocsRW or svcAuditR (404), nor list it', async () => {
      const asBoss = { key: anyKey, runAs: boss };
      for (const path of ['', '/history', '/verify', '/export'])
        assertProblem(await api('GET', `/api/v2/docForm/${bobsDoc}${path}`, asBoss), 404);
      const all = await api('GET', '/api/v2/docForm/view/all', asBoss);
      assert.equal(all.status, 200, all.text);
      assert.ok(!(all.body as { _id: string }[]).some((d) => d._id === bobsDoc), 'view all leaves it out');
      // The person's roles still count where the service account holds them too (admin holds every role).
      assert.equal((await api('GET', `/api/v2/docForm/${bobsDoc}`, { key: admin, runAs: boss })).status, 200);
      assert.equal(
        (await api('GET', `/api/v2/docForm/${bobsDoc}/history`, { key: admin, runAs: boss })).status,
        200,
      );
    });

    it('a service account holding svcAdminSysRW running as a person holding it creates an account (201)', async () => {
      const res = await api('POST', '/api/admin/v1/accounts', {
        key: sysKey,
        runAs: sysop,
        body: newService('created-by-sysop@example.com'),
      });
      assert.equal(res.status, 201, res.text);
      // The same service account running as a person without the role: 403.
      assertProblem(
        await api('POST', '/api/admin/v1/accounts', {
          key: sysKey,
          runAs: alice,
          body: newService('created-by-alice@example.com'),
        }),
        403,
      );
    });

    it('plain run-as still works: a role-less service account acts for a user on that user\u2019s documents', async () => {
      const asAlice = { key: anyKey, runAs: 'alice@example.com' };
      const created = await createDoc(
        target.baseUrl,
        anyKey,
        'memo',
        { docForm: { _tags: ['own'] } },
        asAlice,
      );
      assert.equal(created.status, 201, created.text);
      const id = created.body._id as string;
      const read = await api('GET', `/api/v2/docForm/${id}`, asAlice);
      assert.equal(read.status, 200, read.text);
      assert.equal(read.body.author, alice);
      assert.equal((await api('GET', `/api/v2/docForm/${id}/history`, asAlice)).status, 200);
      const mine = await eventually(
        () => api('GET', '/api/v2/docForm/view/mydocs', asAlice),
        (r) => r.status === 200 && (r.body as { _id: string }[]).some((d) => d._id === id),
      );
      assert.equal(mine.status, 200, mine.text);
      assert.ok(
        (mine.body as { _id: string }[]).some((d) => d._id === id),
        'mydocs lists it',
      );
      // The initiator manages their own document: starts its approval.
      const start = await api('POST', `/api/v2/docForm/${id}/docResponse`, {
        ...asAlice,
        body: { docResponse: { taskstatus: 100 } },
      });
      assert.equal(start.status, 200, start.text);
      assert.equal(start.body.state, 1);
    });
  });
}
