/**
 * If-Match across the two streams of a document (issue 29, finding 6; found by the issue-29 audit): a
 * management move is held at the workflow stream's append (hostile-concurrency.test.ts), a validation
 * of recognised values at the document stream's, so a move and a validation sent at once with the same
 * If-Match both answered 200 (5 of 5 trials). The build asks that exactly one of concurrent matching
 * requests succeeds and the rest get 412: the document service now runs a document's If-Match writes
 * one at a time, each on the document read again (documents/api.ts, pinnedWrite).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { textPdf } from '@docflow/recognition';
import { createDoc, createPerson, eventually } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';

const TRIALS = 5;
const INVOICE = [
  { text: 'INVOICE', size: 28 },
  { text: 'Invoice No. INV-2026-005' },
  { text: 'Total: 12.00' },
];

for (const factory of targets())
  describe(`If-Match across a document’s streams [${factory.name}]`, {
    skip: factory.skip,
    timeout: 300_000,
  }, () => {
    let target: Target;
    let api: Api;

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      await createPerson(api, target.adminKey, 'bob@example.com');
      // The sample form `invoice` (it has recognition forms) with an approval stage, so a move acts.
      const form = await api('GET', '/api/admin/v1/forms/invoice', { key: target.adminKey });
      assert.equal(form.status, 200, form.text);
      const definition = Object.fromEntries(Object.entries(form.body).filter(([k]) => !k.startsWith('_')));
      const put = await api('PUT', '/api/admin/v1/forms/invoice', {
        key: target.adminKey,
        body: { ...definition, workflow: { approval: { stages: [{ participants: ['bob@example.com'] }] } } },
      });
      assert.ok(put.status < 300, put.text);
    });
    after(() => target?.stop());

    it(`a management move and a validation sent at once with one If-Match: one 200, the other 412 (${TRIALS} trials)`, async () => {
      for (let trial = 1; trial <= TRIALS; trial++) {
        const created = await createDoc(target.baseUrl, target.adminKey, 'invoice', {
          docForm: {},
          docResponse: { taskstatus: 100 },
          files: [{ name: 'invoice.pdf', content: textPdf([INVOICE]), type: 'application/pdf' }],
        });
        assert.equal(created.status, 201, created.text);
        const id: string = created.body._id;
        const doc = await eventually(
          () => api('GET', `/api/v2/docForm/${id}?embed=recoData`, { key: target.adminKey }),
          (r) => r.body.recoStatus !== 'pending',
          120_000,
        );
        assert.equal(doc.body.recoStatus, 'done', doc.text);
        const pinned = { key: target.adminKey, headers: { 'if-match': doc.headers.get('etag')! } };
        const [move, validation] = await Promise.all([
          api('POST', `/api/v2/docForm/${id}/docResponse`, {
            ...pinned,
            body: { docResponse: { taskstatus: 101 } },
          }),
          api('PUT', `/api/v2/docForm/${id}/recoData/${doc.body.recoData[0]._id}`, {
            ...pinned,
            body: { valuesByTags: { invoiceNo: 'INV-2026-006' } },
          }),
        ]);
        assert.deepEqual(
          [move.status, validation.status].sort(),
          [200, 412],
          `trial ${trial}: move ${move.status}, validation ${validation.status}`,
        );
      }
    });
  });
