/**
 * Issue 34: each recognised part shows the threshold its values were judged against
 * (`recoData[].autoValidateAt`), in every mode, to whoever reads the document — the form's validator
 * too, who may not read forms. It is the threshold recognition applied: the part is validated by
 * recognition exactly when every value clears it; it is the form's as the document was created with
 * it (a later change of the form changes only later documents); a form that sets none gives none.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { textPdf } from '@docflow/recognition';
import { createPerson, createRecognised } from '../support/documents';
import { type Api, apiClient, type CallOptions } from '../support/http';
import { invoiceByTypeForm, invoiceLines } from '../support/invoice-by-type';
import { type Target, targets } from '../support/targets';

for (const factory of targets()) {
  describe(`recognition threshold on the part [${factory.name}]`, {
    skip: factory.skip,
    timeout: 300_000,
  }, () => {
    let target: Target;
    let api: Api;
    let admin: string;
    let svc: string;
    let valerie: string;
    /** The validator, a person without any role, through a role-less service account. */
    const asValerie = () => ({ key: svc, runAs: valerie });

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      admin = target.adminKey;
      valerie = await createPerson(api, admin, 'valerie@example.com');
      const s = await api('POST', '/api/admin/v1/accounts', {
        key: admin,
        body: { kind: 'service', email: 'portal@example.com', name_first: 'P', name_last: 'S' },
      });
      svc = s.body.apiKey;
    });
    after(() => target?.stop());

    const defineForm = async (autoValidateAt?: number) => {
      const put = await api('PUT', '/api/admin/v1/forms/thresholded', {
        key: admin,
        body: invoiceByTypeForm('thresholded', 'Thresholded invoice', {
          ...(autoValidateAt === undefined ? {} : { autoValidateAt }),
          validators: ['valerie@example.com'],
        }),
      });
      assert.ok(put.status === 200 || put.status === 201, put.text);
    };

    /** A recognised invoice: its id and its part as `reader` (default: the validator) reads it. */
    const recognised = async (reader: CallOptions = asValerie()) => {
      const read = await createRecognised(
        api,
        target.baseUrl,
        admin,
        'thresholded',
        { name: 'invoice.pdf', content: textPdf([invoiceLines()]), type: 'application/pdf' },
        reader,
      );
      assert.equal(read.status, 200, read.text);
      return { id: read.body._id as string, entry: read.body.recoData[0] };
    };

    /** Whether recognition validated the part is what its threshold says of its values. */
    const assertApplied = (entry: any) => {
      const confidences = Object.values<any>(entry.fieldsByTags).map((f) => f.confidence as number);
      assert.equal(confidences.length, 4, JSON.stringify(entry));
      const clears = confidences.every((c) => c >= entry.autoValidateAt);
      assert.equal(entry.validated, clears, JSON.stringify(entry));
      assert.equal(entry.validatedBy, clears ? 'recognition' : undefined);
    };

    it('the validator reads the form\u2019s threshold on the part, as applied; a later change of the form leaves it', async () => {
      await defineForm(80);
      const first = await recognised();
      assert.equal(first.entry.autoValidateAt, 80, JSON.stringify(first.entry));
      assertApplied(first.entry);
      assert.equal(first.entry.validated, false, 'the lowered total waits for the validator');

      await defineForm(0);
      const again = await api('GET', `/api/v2/docForm/${first.id}?embed=recoData`, asValerie());
      assert.equal(again.body.recoData[0].autoValidateAt, 80, 'judged against the form as it was');
      // Validated by recognition, it opens no task for the validator: the admin reads it.
      const second = await recognised({ key: admin });
      assert.equal(second.entry.autoValidateAt, 0, JSON.stringify(second.entry));
      assertApplied(second.entry);
      assert.equal(second.entry.validated, true);

      // The validator's own validation answers the entry with it too.
      const put = await api('PUT', `/api/v2/docForm/${first.id}/recoData/${first.entry._id}`, {
        ...asValerie(),
        body: { valuesByTags: { ...first.entry.valuesByTags, subtotal: '80.00' } },
      });
      assert.equal(put.status, 200, put.text);
      assert.equal(put.body.autoValidateAt, 80);
    });

    it('none on the part of a form that sets no threshold', async () => {
      await defineForm();
      const { entry } = await recognised();
      assert.ok(entry.fieldsByTags, JSON.stringify(entry));
      assert.equal('autoValidateAt' in entry, false, JSON.stringify(entry));
      assert.equal(entry.validated, false);
    });
  });
}
