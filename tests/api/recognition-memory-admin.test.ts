/**
 * Issue 34, "learning from corrections": a form's recognition memory is inspectable and removable by an
 * admin over the public API, in every mode (the gateway forwards to the recognition service, which owns
 * it): an empty memory reads as such, removing a supplier not remembered is 404, and a person without
 * the admin role is refused. (What a correction teaches, and its use on the next document:
 * recognition-correction-memory.test.ts and services/recognition/src/memory/*.test.ts.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPerson } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';

for (const factory of targets()) {
  describe(`recognition memory admin routes [${factory.name}]`, {
    skip: factory.skip,
    timeout: 200_000,
  }, () => {
    let target: Target;
    let api: Api;
    let admin: string;
    let svc: string;
    let clerk: string;

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      admin = target.adminKey;
      clerk = await createPerson(api, admin, 'clerk@example.com');
      const s = await api('POST', '/api/admin/v1/accounts', {
        key: admin,
        body: { kind: 'service', email: 'portal@example.com', name_first: 'P', name_last: 'S' },
      });
      svc = s.body.apiKey;
    });
    after(() => target?.stop());

    it('an admin reads a form\u2019s memory; removing an unknown supplier is 404; others are refused', async () => {
      const read = await api('GET', '/api/admin/v1/forms/invoice/recognition-memory', { key: admin });
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(read.body, { form: 'invoice', suppliers: [] });
      const gone = await api('DELETE', '/api/admin/v1/forms/invoice/recognition-memory/acme%20gmbh', {
        key: admin,
      });
      assert.equal(gone.status, 404, gone.text);
      assert.match(gone.headers.get('content-type') ?? '', /problem\+json/);
      const bad = await api('GET', '/api/admin/v1/forms/Not%20a%20form/recognition-memory', { key: admin });
      assert.equal(bad.status, 400, bad.text);
      const refused = await api('GET', '/api/admin/v1/forms/invoice/recognition-memory', {
        key: svc,
        runAs: clerk,
      });
      assert.equal(refused.status, 403, refused.text);
    });
  });
}
