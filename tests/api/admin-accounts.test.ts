/**
 * The administrators cannot be locked out: the bootstrap account `admin` stays active with every role
 * (409 otherwise), in every mode; and a start repairs one an older version let be stripped.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ADMIN_ACCOUNT_ID, accountIdOfApiKey, ROLES } from '@docflow/contracts';
import { createSqliteEventStore } from '@docflow/eventstore';
import { type Api, type ApiResponse, apiClient } from '../support/http';
import { GENERATED_KEY_IN_OUTPUT, startEmbedded, type Target, targets } from '../support/targets';

const ADMIN_PATH = `/api/admin/v1/accounts/${ADMIN_ACCOUNT_ID}`;

function assertConflict(res: ApiResponse, detail: RegExp) {
  assert.equal(res.status, 409, res.text);
  assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
  assert.equal(res.body.status, 409);
  assert.equal(res.body.title, 'Conflict');
  assert.match(res.body.detail, detail);
}

/** The bootstrap account as the API shows it, and proof that its key still administers. */
async function assertAdminIntact(api: Api, key: string) {
  const admin = await api('GET', ADMIN_PATH, { key });
  assert.equal(admin.status, 200, admin.text);
  assert.equal(admin.body.active, true);
  assert.deepEqual([...admin.body.roles].sort(), [...ROLES].sort());
  return admin.body;
}

for (const factory of targets()) {
  describe(`bootstrap account stays an administrator [${factory.name}]`, {
    skip: factory.skip,
    timeout: 180_000,
  }, () => {
    let target: Target;
    let api: Api;
    let admin: string;
    let otherId = '';

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      admin = target.adminKey;
    });
    after(() => target?.stop());

    async function createSysAdmin(email: string) {
      const res = await api('POST', '/api/admin/v1/accounts', {
        key: admin,
        body: { kind: 'service', email, name_first: 'Sys', name_last: 'Admin', roles: ['svcAdminSysRW'] },
      });
      assert.equal(res.status, 201, res.text);
      return res.body as { _id_sys: string; apiKey: string };
    }

    it('PATCH {"active":false} on the bootstrap account: 409, nothing changed', async () => {
      const before = await assertAdminIntact(api, admin);
      assertConflict(
        await api('PATCH', ADMIN_PATH, { key: admin, body: { active: false } }),
        /bootstrap account admin cannot be deactivated/,
      );
      const after = await assertAdminIntact(api, admin);
      assert.equal(after._meta._rev, before._meta._rev);
    });

    it('PATCH {"roles":[]} on the bootstrap account: 409 naming the roles it would lose', async () => {
      assertConflict(
        await api('PATCH', ADMIN_PATH, { key: admin, body: { roles: [] } }),
        /keeps every role: this change would remove svcAdminSysRW, svcAdminDocsRW/,
      );
      await assertAdminIntact(api, admin);
    });

    it('another administrator cannot strip it either', async () => {
      const other = await createSysAdmin('other-admin@example.com');
      otherId = other._id_sys;
      assertConflict(
        await api('PATCH', ADMIN_PATH, { key: other.apiKey, body: { roles: ['svcAdminDocsRW'] } }),
        /would remove svcAdminSysRW/,
      );
      assertConflict(
        await api('PATCH', ADMIN_PATH, { key: other.apiKey, body: { active: false } }),
        /cannot be deactivated/,
      );
      await assertAdminIntact(api, admin);
    });

    it('taking svcAdminSysRW from the only two holders at once: the other loses it, the bootstrap account is 409 and the last holder', async () => {
      // The earlier administrator goes, so the bootstrap account and `second` are the only holders.
      const gone = await api('PATCH', `/api/admin/v1/accounts/${otherId}`, {
        key: admin,
        body: { active: false },
      });
      assert.equal(gone.status, 200, gone.text);
      const second = await createSysAdmin('second-admin@example.com');
      const [lost, kept] = await Promise.all([
        api('PATCH', `/api/admin/v1/accounts/${second._id_sys}`, { key: admin, body: { roles: [] } }),
        // By the bootstrap key: with `second`'s key the race would be with its own authorisation.
        api('PATCH', ADMIN_PATH, { key: admin, body: { roles: [] } }),
      ]);
      assert.equal(lost.status, 200, lost.text);
      assert.deepEqual(lost.body.roles, []);
      assertConflict(kept, /would remove svcAdminSysRW/);
      // The bootstrap account is now the last holder, and still cannot lose it.
      assertConflict(
        await api('PATCH', ADMIN_PATH, {
          key: admin,
          body: { roles: ['svcAdminDocsRW', 'svcAdminDocRW', 'svcAdminDocRWD', 'svcAuditR'] },
        }),
        /would remove svcAdminSysRW$/,
      );
      await assertAdminIntact(api, admin);
      const created = await api('POST', '/api/admin/v1/accounts', {
        key: admin,
        body: { kind: 'person', email: 'after-lockout@example.com', name_first: 'A', name_last: 'L' },
      });
      assert.equal(created.status, 201, 'the bootstrap key still administers');
    });

    it('a normal PATCH still works, and restating the bootstrap account changes nothing', async () => {
      const other = await createSysAdmin('third-admin@example.com');
      const off = await api('PATCH', `/api/admin/v1/accounts/${other._id_sys}`, {
        key: admin,
        body: { active: false, roles: ['svcAdminDocsRW'] },
      });
      assert.equal(off.status, 200, off.text);
      assert.equal(off.body.active, false);
      assert.deepEqual(off.body.roles, ['svcAdminDocsRW']);
      const before = await assertAdminIntact(api, admin);
      const same = await api('PATCH', ADMIN_PATH, {
        key: admin,
        body: { active: true, roles: [...ROLES].reverse() },
      });
      assert.equal(same.status, 200, same.text);
      assert.equal(same.body._meta._rev, before._meta._rev);
    });

    it('the OpenAPI document lists the 409 of PATCH', async () => {
      const doc = await api('GET', '/openapi.json');
      const patch = doc.body.paths['/api/admin/v1/accounts/{id}'].patch;
      assert.match(patch.responses['409'].description, /bootstrap account `admin`/);
      assert.ok(patch.responses['409'].content['application/problem+json']);
    });
  });
}

describe('a start repairs a bootstrap account stripped by an older version [embedded]', {
  timeout: 180_000,
}, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'docflow-admin-repair-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('without DOCFLOW_ADMIN_KEY the generated key works again, active with every role', async () => {
    const first = await startEmbedded({ adminKey: null, dataDir });
    const [key] = first.output().match(GENERATED_KEY_IN_OUTPUT) ?? [];
    assert.ok(key, 'a generated key was printed');
    assert.equal(accountIdOfApiKey(key), ADMIN_ACCOUNT_ID, 'the key names the admin account');
    await first.stop();

    // What PATCH {"roles":[]} and {"active":false} left before they were refused.
    const store = createSqliteEventStore({ file: first.eventStoreFile('identity') });
    const stream = `account-${ADMIN_ACCOUNT_ID}`;
    const revision = (await store.readStream(stream)).length;
    const metadata = { correlationId: randomUUID(), timestamp: new Date().toISOString() };
    await store.append(
      stream,
      [
        { id: randomUUID(), type: 'RolesChanged', version: 1, data: { roles: [] }, metadata },
        { id: randomUUID(), type: 'AccountActivationChanged', version: 1, data: { active: false }, metadata },
      ],
      revision,
    );
    await store.close();

    const second = await startEmbedded({ adminKey: null, dataDir });
    try {
      assert.equal(second.output().match(/dfk_/), null, 'no new key is generated');
      await assertAdminIntact(apiClient(second.baseUrl), key);
    } finally {
      await second.stop();
    }
  });
});
