/**
 * Recognised values and the document's own fields, one rule (issue 33, docs/decisions.md): recognition
 * fills only empty fields when it is recorded; validating a part changes the document's fields only when
 * the validator asks (`copyToFields: true`), and then to the validated values.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { textPdf } from '@docflow/recognition';
import { createDoc, eventually } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { startEmbedded, type Target } from '../support/targets';

const INVOICE = [
  { text: 'INVOICE', size: 28 },
  { text: 'Invoice No. INV-2026-005' },
  { text: 'Total: 12.00' },
];

describe('validating recognised values: copied into the document fields only when asked', {
  timeout: 200_000,
}, () => {
  let target: Target;
  let api: Api;

  before(async () => {
    target = await startEmbedded();
    api = apiClient(target.baseUrl);
  });
  after(() => target?.stop());

  async function recognized() {
    const created = await createDoc(target.baseUrl, target.adminKey, 'invoice', {
      docForm: { valuesByTags: { total: 'typed by hand' } },
      files: [{ name: 'invoice.pdf', content: textPdf([INVOICE]), type: 'application/pdf' }],
    });
    assert.equal(created.status, 201, created.text);
    const doc = await eventually(
      () => api('GET', `/api/v2/docForm/${created.body._id}?embed=recoData`, { key: target.adminKey }),
      (r) => r.body.recoStatus !== 'pending',
      120_000,
    );
    assert.equal(doc.body.recoStatus, 'done', doc.text);
    return doc.body;
  }
  const validate = (id: string, recoId: string, body: unknown) =>
    api('PUT', `/api/v2/docForm/${id}/recoData/${recoId}`, { key: target.adminKey, body });
  const fields = async (id: string) =>
    (await api('GET', `/api/v2/docForm/${id}`, { key: target.adminKey })).body.valuesByTags;

  it('recognition fills the empty fields; a validation leaves the fields alone unless asked to copy', async () => {
    const doc = await recognized();
    assert.deepEqual(doc.valuesByTags, { total: 'typed by hand', invoiceNo: 'INV-2026-005' });
    const recoId = doc.recoData[0]._id;

    const plain = await validate(doc._id, recoId, {
      valuesByTags: { invoiceNo: 'INV-2026-006', total: '12.00' },
    });
    assert.equal(plain.status, 200, plain.text);
    assert.deepEqual(await fields(doc._id), { total: 'typed by hand', invoiceNo: 'INV-2026-005' });

    const copied = await validate(doc._id, recoId, {
      valuesByTags: { invoiceNo: 'INV-2026-007', total: '12.00' },
      copyToFields: true,
    });
    assert.equal(copied.status, 200, copied.text);
    assert.equal(copied.body.validated, true);
    assert.deepEqual(await fields(doc._id), { total: '12.00', invoiceNo: 'INV-2026-007' });
    const history = await api('GET', `/api/v2/docForm/${doc._id}/history`, { key: target.adminKey });
    assert.deepEqual(
      history.body.slice(-2).map((e: { type: string }) => e.type),
      ['RecoDataValidated', 'DocumentFieldsUpdated'],
    );
  });

  it('copyToFields must be a boolean', async () => {
    const doc = await recognized();
    const res = await validate(doc._id, doc.recoData[0]._id, { valuesByTags: {}, copyToFields: 'yes' });
    assert.equal(res.status, 400, res.text);
  });
});
