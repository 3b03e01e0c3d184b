/** Accounts, persons and authentication over real HTTP through the gateway, in every mode. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_KEY_PATTERN, accountIdOfApiKey } from '@docflow/contracts';
import { eventually } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';

const PASSWORD = 'Correct-Horse-Battery-Staple-42';

function assertProblem(res: { status: number; headers: Headers; body: any }, status: number) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
  assert.equal(res.body.status, status);
  assert.equal(typeof res.body.title, 'string');
  assert.equal(typeof res.body.type, 'string');
}

for (const factory of targets()) {
  describe(`person and account API [${factory.name}]`, { skip: factory.skip, timeout: 180_000 }, () => {
    let target: Target;
    let api: Api;
    let admin: string;
    const ids: Record<string, string> = {};
    let svcNoRoleKey = '';
    let svcSysKey = '';

    async function createAccount(body: Record<string, unknown>) {
      const res = await api('POST', '/api/admin/v1/accounts', { key: admin, body });
      assert.equal(res.status, 201, res.text);
      return res.body;
    }

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      admin = target.adminKey;
      const alice = await createAccount({
        kind: 'person',
        email: 'Alice@Example.com',
        name_first: 'Alice',
        name_last: 'Archer',
      });
      const bob = await createAccount({
        kind: 'person',
        email: 'bob@example.com',
        name_first: 'Bob',
        name_last: 'Baker',
      });
      const sysUser = await createAccount({
        kind: 'person',
        email: 'sysop@example.com',
        name_first: 'Sys',
        name_last: 'Op',
        roles: ['svcAdminSysRW'],
      });
      const svcNoRole = await createAccount({
        kind: 'service',
        email: 'portal@example.com',
        name_first: 'Portal',
        name_last: 'Svc',
      });
      const svcSys = await createAccount({
        kind: 'service',
        email: 'hr-sync@example.com',
        name_first: 'HR',
        name_last: 'Sync',
        roles: ['svcAdminSysRW'],
      });
      Object.assign(ids, {
        alice: alice._id_sys,
        bob: bob._id_sys,
        sysUser: sysUser._id_sys,
        svcNoRole: svcNoRole._id_sys,
      });
      svcNoRoleKey = svcNoRole.apiKey;
      svcSysKey = svcSys.apiKey;
    });
    after(() => target?.stop());

    describe('health and documentation', () => {
      it('serves /healthz and /readyz', async () => {
        assert.equal((await api('GET', '/healthz')).status, 200);
        // Readiness asks each service with a 2 s bound; on a loaded machine one may miss it for a moment
        // (503, that service "down"), so the probe is asked until it says ready, for at most 10 s.
        const ready = await eventually(
          () => api('GET', '/readyz'),
          (r) => r.status === 200,
        );
        assert.equal(ready.status, 200, ready.text);
        assert.equal(ready.body.status, 'ready');
      });
      it('serves the OpenAPI document and the docs page', async () => {
        const doc = await api('GET', '/openapi.json');
        assert.equal(doc.status, 200);
        assert.equal(doc.body.openapi, '3.1.0');
        for (const path of [
          '/api/v1/person/{id}',
          '/api/v2/person/{id}',
          '/api/v1/person',
          '/api/v2/person',
          '/api/admin/v1/accounts',
        ])
          assert.ok(doc.body.paths[path], `OpenAPI has ${path}`);
        assert.ok(doc.body.components.schemas.Person);
        assert.ok(doc.body.components.securitySchemes.apiKey);
        const page = await api('GET', '/docs');
        assert.equal(page.status, 200);
        assert.match(page.text, /swagger-ui-bundle\.js/);
        assert.equal((await api('GET', '/docs/assets/swagger-ui-bundle.js')).status, 200);
      });
      it('answers an unknown route with a 404 problem', async () => {
        assertProblem(await api('GET', '/nope', { key: admin }), 404);
      });
    });

    describe('accounts (admin API)', () => {
      it('shows a service account key once and never again', async () => {
        assert.match(svcNoRoleKey, API_KEY_PATTERN);
        assert.equal(accountIdOfApiKey(svcNoRoleKey), ids.svcNoRole, 'the key names its account');
        const read = await api('GET', `/api/admin/v1/accounts/${ids.svcNoRole}`, { key: admin });
        assert.equal(read.status, 200);
        assert.equal(read.body.apiKey, undefined);
        assert.equal(read.body.kind, 'service');
        assert.doesNotMatch(read.text, /dfk_|keyHash/);
      });
      it('gives every principal a usr- id and stores e-mails lower-case', async () => {
        for (const id of Object.values(ids))
          assert.match(id, /^usr-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        const alice = await api('GET', `/api/v2/person/${ids.alice}`, { key: admin });
        assert.equal(alice.body.email, 'alice@example.com');
      });
      it('rejects a second account with the same e-mail (409)', async () => {
        const res = await api('POST', '/api/admin/v1/accounts', {
          key: admin,
          body: { kind: 'person', email: 'ALICE@example.com', name_first: 'A', name_last: 'B' },
        });
        assertProblem(res, 409);
      });
      it('needs svcAdminSysRW (403 without)', async () => {
        const res = await api('POST', '/api/admin/v1/accounts', {
          key: svcNoRoleKey,
          body: { kind: 'person', email: 'x@example.com', name_first: 'X', name_last: 'Y' },
        });
        assertProblem(res, 403);
      });
      it('validates the body (unknown key, bad e-mail, bad role)', async () => {
        for (const body of [
          { kind: 'person', email: 'y@example.com', name_first: 'Y', name_last: 'Z', extra: 1 },
          { kind: 'person', email: 'not-an-email', name_first: 'Y', name_last: 'Z' },
          { kind: 'robot', email: 'y@example.com', name_first: 'Y', name_last: 'Z' },
          { kind: 'person', email: 'y@example.com', name_first: 'Y', name_last: 'Z', roles: ['root'] },
        ]) {
          const res = await api('POST', '/api/admin/v1/accounts', { key: admin, body });
          assertProblem(res, 400);
          assert.ok(res.body.errors.length > 0);
        }
      });
      it('PATCH changes roles and the active flag; 404 for an unknown account', async () => {
        const res = await api('PATCH', `/api/admin/v1/accounts/${ids.bob}`, {
          key: admin,
          body: { roles: ['svcAdminDocsRW'] },
        });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body.roles, ['svcAdminDocsRW']);
        const missing = await api(
          'PATCH',
          '/api/admin/v1/accounts/usr-00000000-0000-0000-0000-00000000dead',
          {
            key: admin,
            body: { active: false },
          },
        );
        assertProblem(missing, 404);
        assertProblem(await api('PATCH', `/api/admin/v1/accounts/${ids.bob}`, { key: admin, body: {} }), 400);
      });
    });

    describe('authentication', () => {
      it('401 without credentials, with a bad key, or with a malformed header', async () => {
        const none = await api('GET', `/api/v2/person/${ids.alice}`);
        assertProblem(none, 401);
        assert.match(none.headers.get('www-authenticate') ?? '', /Bearer/);
        assertProblem(await api('GET', `/api/v2/person/${ids.alice}`, { key: 'dfk_not-a-real-key' }), 401);
        assertProblem(
          await api('GET', `/api/v2/person/${ids.alice}`, {
            headers: { authorization: `Basic ${btoa('a:b')}` },
          }),
          401,
        );
      });
      it('401 for a deactivated service account, and again 200 once reactivated', async () => {
        const svc = await createAccount({
          kind: 'service',
          email: 'temp-svc@example.com',
          name_first: 'T',
          name_last: 'S',
        });
        assert.equal((await api('GET', `/api/v2/person/${ids.alice}`, { key: svc.apiKey })).status, 200);
        await api('PATCH', `/api/admin/v1/accounts/${svc._id_sys}`, { key: admin, body: { active: false } });
        assertProblem(await api('GET', `/api/v2/person/${ids.alice}`, { key: svc.apiKey }), 401);
        await api('PATCH', `/api/admin/v1/accounts/${svc._id_sys}`, { key: admin, body: { active: true } });
        assert.equal((await api('GET', `/api/v2/person/${ids.alice}`, { key: svc.apiKey })).status, 200);
      });
      it('a person has no API key: a person id is no credential', async () => {
        assertProblem(await api('GET', `/api/v2/person/${ids.alice}`, { key: ids.alice }), 401);
      });
    });

    describe('GET person', () => {
      it('returns every field of the contract, the same in v1 and v2', async () => {
        const v2 = await api('GET', `/api/v2/person/${ids.bob}`, { key: svcNoRoleKey });
        const v1 = await api('GET', `/api/v1/person/${ids.bob}`, { key: svcNoRoleKey });
        assert.equal(v2.status, 200);
        assert.match(v2.headers.get('content-type') ?? '', /application\/json/);
        assert.deepEqual(v1.body, v2.body);
        const p = v2.body;
        assert.equal(p._id_sys, ids.bob);
        assert.equal(p.email, 'bob@example.com');
        assert.equal(p.name_first, 'Bob');
        assert.equal(p.name_last, 'Baker');
        for (const f of ['name_mid', 'phone_office', 'phone_mobile', 'unit']) assert.equal(p[f], '');
        assert.deepEqual(p.deputy, { id: '', enabled: 'false' });
        assert.equal(p.pwd, undefined);
        assert.match(p._meta._created, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        assert.match(p._meta._lastmodified, /Z$/);
        assert.equal(typeof p._meta._rev, 'number');
      });
      it('404 for an unknown person, 400 for a malformed id', async () => {
        assertProblem(
          await api('GET', '/api/v2/person/usr-00000000-0000-4000-8000-00000000beef', { key: admin }),
          404,
        );
        assertProblem(
          await api('GET', '/api/v1/person/usr-00000000-0000-4000-8000-00000000beef', { key: admin }),
          404,
        );
        const bad = await api('GET', '/api/v2/person/alice', { key: admin });
        assertProblem(bad, 400);
        assert.equal(bad.body.errors[0].pointer, 'path.id');
      });
      it('404 for a service account id: it is no person', async () => {
        assertProblem(await api('GET', `/api/v2/person/${ids.svcNoRole}`, { key: admin }), 404);
      });
    });

    describe('POST person', () => {
      it('updates every field (v2) and carries deputy.enabled as a string', async () => {
        const before = await api('GET', `/api/v2/person/${ids.alice}`, { key: admin });
        const res = await api('POST', '/api/v2/person', {
          key: admin,
          body: {
            _id_sys: ids.alice,
            name_first: 'Alicia',
            name_last: 'Archer-Smith',
            name_mid: 'J.',
            phone_office: '+49 30 1234-56',
            phone_mobile: '+49 170 555 0101',
            unit: 'Legal',
            deputy: { id: ids.bob, enabled: 'true' },
          },
        });
        assert.equal(res.status, 200, res.text);
        const p = res.body;
        assert.equal(p.name_first, 'Alicia');
        assert.equal(p.name_last, 'Archer-Smith');
        assert.equal(p.name_mid, 'J.');
        assert.equal(p.phone_office, '+49 30 1234-56');
        assert.equal(p.phone_mobile, '+49 170 555 0101');
        assert.equal(p.unit, 'Legal');
        assert.deepEqual(p.deputy, { id: ids.bob, enabled: 'true' });
        assert.equal(p._meta._rev, before.body._meta._rev + 1);
        assert.equal(p._meta._created, before.body._meta._created);
        const read = await api('GET', `/api/v2/person/${ids.alice}`, { key: admin });
        assert.deepEqual(read.body, p);
      });
      it('v1 has the same shape; a partial update changes only what it names', async () => {
        const before = (await api('GET', `/api/v1/person/${ids.alice}`, { key: admin })).body;
        const res = await api('POST', '/api/v1/person', {
          key: admin,
          body: { _id_sys: ids.alice, unit: 'Compliance' },
        });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(
          { ...res.body, _meta: undefined },
          { ...before, unit: 'Compliance', _meta: undefined },
        );
        assert.equal(res.body._meta._rev, before._meta._rev + 1);
      });
      it('an update that changes nothing keeps the revision', async () => {
        const before = (await api('GET', `/api/v2/person/${ids.alice}`, { key: admin })).body;
        const res = await api('POST', '/api/v2/person', {
          key: admin,
          body: { _id_sys: ids.alice, unit: before.unit },
        });
        assert.equal(res.status, 200);
        assert.equal(res.body._meta._rev, before._meta._rev);
      });
      it('accepts deputy.enabled as a JSON boolean too, and disables / removes the deputy', async () => {
        const off = await api('POST', '/api/v2/person', {
          key: admin,
          body: { _id_sys: ids.alice, deputy: { id: ids.bob, enabled: false } },
        });
        assert.deepEqual(off.body.deputy, { id: ids.bob, enabled: 'false' });
        const removed = await api('POST', '/api/v2/person', {
          key: admin,
          body: { _id_sys: ids.alice, deputy: { id: '', enabled: 'false' } },
        });
        assert.deepEqual(removed.body.deputy, { id: '', enabled: 'false' });
      });
      it('rejects an unknown deputy or oneself as deputy (400)', async () => {
        assertProblem(
          await api('POST', '/api/v2/person', {
            key: admin,
            body: {
              _id_sys: ids.alice,
              deputy: { id: 'usr-00000000-0000-4000-8000-00000000beef', enabled: 'true' },
            },
          }),
          400,
        );
        assertProblem(
          await api('POST', '/api/v2/person', {
            key: admin,
            body: { _id_sys: ids.alice, deputy: { id: ids.alice, enabled: 'true' } },
          }),
          400,
        );
      });
      it('404 for an unknown person', async () => {
        assertProblem(
          await api('POST', '/api/v2/person', {
            key: admin,
            body: { _id_sys: 'usr-00000000-0000-4000-8000-00000000beef', unit: 'x' },
          }),
          404,
        );
      });
      it('needs svcAdminSysRW: 403 without it', async () => {
        assertProblem(
          await api('POST', '/api/v2/person', { key: svcNoRoleKey, body: { _id_sys: ids.bob, unit: 'x' } }),
          403,
        );
        assertProblem(
          await api('POST', '/api/v1/person', { key: svcNoRoleKey, body: { _id_sys: ids.bob, unit: 'x' } }),
          403,
        );
        assert.equal(
          (await api('POST', '/api/v2/person', { key: svcSysKey, body: { _id_sys: ids.bob, unit: 'Ops' } }))
            .status,
          200,
        );
      });
      it('400 problem+json for malformed JSON, wrong types, unknown keys and values out of range', async () => {
        assertProblem(
          await api('POST', '/api/v2/person', {
            key: admin,
            raw: '{"_id_sys": ',
            headers: { 'content-type': 'application/json' },
          }),
          400,
        );
        const wrongTypes = await api('POST', '/api/v2/person', {
          key: admin,
          body: { _id_sys: ids.alice, name_first: 42, deputy: { id: ids.bob, enabled: 'yes' } },
        });
        assertProblem(wrongTypes, 400);
        const pointers = wrongTypes.body.errors.map((e: { pointer: string }) => e.pointer);
        assert.ok(pointers.includes('body.name_first'), pointers.join());
        assert.ok(
          pointers.some((p: string) => p.startsWith('body.deputy')),
          pointers.join(),
        );
        assertProblem(
          await api('POST', '/api/v2/person', {
            key: admin,
            body: { _id_sys: ids.alice, email: 'new@example.com' },
          }),
          400,
        );
        assertProblem(await api('POST', '/api/v2/person', { key: admin, body: { name_first: 'NoId' } }), 400);
        assertProblem(
          await api('POST', '/api/v2/person', {
            key: admin,
            body: { _id_sys: ids.alice, name_first: 'x'.repeat(101) },
          }),
          400,
        );
        assertProblem(
          await api('POST', '/api/v2/person', { key: admin, body: { _id_sys: ids.alice, pwd: 'short' } }),
          400,
        );
        assertProblem(
          await api('POST', '/api/v2/person', {
            key: admin,
            body: { _id_sys: ids.alice, phone_office: 'call me' },
          }),
          400,
        );
        assertProblem(await api('POST', '/api/v2/person', { key: admin, body: [] }), 400);
      });
      it('415 for a body that is not JSON', async () => {
        assertProblem(
          await api('POST', '/api/v2/person', {
            key: admin,
            raw: `_id_sys=${ids.alice}`,
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          }),
          415,
        );
      });
    });

    describe('svc-run-as', () => {
      it('by usr- id and by e-mail (any case): the user becomes the principal', async () => {
        assert.equal(
          (await api('GET', `/api/v2/person/${ids.bob}`, { key: svcNoRoleKey, runAs: ids.alice })).status,
          200,
        );
        assert.equal(
          (await api('GET', `/api/v2/person/${ids.bob}`, { key: svcNoRoleKey, runAs: 'ALICE@example.com' }))
            .status,
          200,
        );
      });
      it('only the user\u2019s roles count: a privileged service account running as a plain user gets 403', async () => {
        assertProblem(
          await api('POST', '/api/v2/person', {
            key: admin,
            runAs: ids.alice,
            body: { _id_sys: ids.bob, unit: 'x' },
          }),
          403,
        );
      });
      it('a role counts only where both hold it: a user holding svcAdminSysRW updates through a service account holding it too, not through one without', async () => {
        assertProblem(
          await api('POST', '/api/v2/person', {
            key: svcNoRoleKey,
            runAs: 'sysop@example.com',
            body: { _id_sys: ids.bob, unit: 'Run-as unit' },
          }),
          403,
        );
        const res = await api('POST', '/api/v2/person', {
          key: svcSysKey,
          runAs: 'sysop@example.com',
          body: { _id_sys: ids.bob, unit: 'Run-as unit' },
        });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.unit, 'Run-as unit');
      });
      it('403 for an unknown user, an unknown e-mail, a service account or an inactive user', async () => {
        assertProblem(
          await api('GET', `/api/v2/person/${ids.bob}`, {
            key: admin,
            runAs: 'usr-00000000-0000-4000-8000-00000000beef',
          }),
          403,
        );
        assertProblem(
          await api('GET', `/api/v2/person/${ids.bob}`, { key: admin, runAs: 'nobody@example.com' }),
          403,
        );
        assertProblem(
          await api('GET', `/api/v2/person/${ids.bob}`, { key: admin, runAs: ids.svcNoRole }),
          403,
        );
        const carol = await createAccount({
          kind: 'person',
          email: 'carol@example.com',
          name_first: 'Carol',
          name_last: 'C',
          active: false,
        });
        const res = await api('GET', `/api/v2/person/${ids.bob}`, { key: admin, runAs: carol._id_sys });
        assertProblem(res, 403);
        assert.match(res.body.detail, /inactive/);
      });
    });

    describe('passwords', () => {
      it('accepts pwd on update and never returns it', async () => {
        const res = await api('POST', '/api/v2/person', {
          key: admin,
          body: { _id_sys: ids.bob, pwd: PASSWORD },
        });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.pwd, undefined);
        assert.ok(!res.text.includes(PASSWORD));
        const read = await api('GET', `/api/v1/person/${ids.bob}`, { key: admin });
        assert.ok(!read.text.includes(PASSWORD) && !read.text.includes('argon2'));
      });
      it('an account change that writes nothing, after a password change, waits for no event the bus never carries', async () => {
        // The password change is bob's newest event: private, so the gateway's read model never sees its
        // revision. A PATCH that changes nothing answers with that revision as `_rev`.
        const changed = await api('POST', '/api/v2/person', {
          key: admin,
          body: { _id_sys: ids.bob, pwd: PASSWORD },
        });
        assert.equal(changed.status, 200, changed.text);
        // Counted, not sliced: in distributed mode the output joins each process's own.
        const lagWarnings = () => target.output().split('account read model lags behind').length;
        const before = lagWarnings();
        const res = await api('PATCH', `/api/admin/v1/accounts/${ids.bob}`, {
          key: admin,
          body: { active: true },
        });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body._meta._rev, changed.body._meta._rev, 'the PATCH wrote nothing');
        assert.equal(res.headers.get('x-docflow-published-rev'), null, 'the internal header stays inside');
        assert.equal(lagWarnings(), before, 'the gateway waited for a revision its read model cannot reach');
      });
      it('no log line contains the password', () => {
        assert.ok(target.output().length > 0);
        assert.ok(!target.output().includes(PASSWORD));
      });
    });
  });
}
