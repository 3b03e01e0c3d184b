/**
 * Issue 34, "learning from corrections", over HTTP in every mode: a fictional supplier prints its
 * invoice number under a label the prebuilt `invoice` form does not know (`Vorgang`) and its due date
 * under another (`Valuta`, written `17.08.2026`), so the generic extraction reads neither. A validator
 * corrects the first document once (the due date written as the form wants it, `2026-08-17`); the
 * supplier's second document is then read right, from memory (`source: 'memory'`); an admin sees the
 * remembered places and removes them, and the third document is read as before the correction.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createRecognised, eventually, RECOGNITION_WAIT_MS } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { quillfeatherInvoice, QUILLFEATHER as SUPPLIER } from '../support/quillfeather';
import { type Target, targets } from '../support/targets';

const MEMORY = '/api/admin/v1/forms/invoice/recognition-memory';

for (const factory of targets()) {
  describe(`recognition correction memory [${factory.name}]`, {
    skip: factory.skip,
    timeout: 400_000,
  }, () => {
    let target: Target;
    let api: Api;
    let admin: string;

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      admin = target.adminKey;
    });
    after(() => target?.stop());

    /** A new invoice document of the supplier, once recognised: its id and its one recognised part. */
    const recognised = async (no: string, due: string) => {
      const read = await createRecognised(api, target.baseUrl, admin, 'invoice', {
        name: 'invoice.pdf',
        content: quillfeatherInvoice(no, due),
        type: 'application/pdf',
      });
      assert.equal(read.body.recoStatus, 'done', read.text);
      assert.equal(read.body.recoData.length, 1, read.text);
      return { id: read.body._id as string, part: read.body.recoData[0] };
    };

    it('one correction, and the supplier\u2019s next invoice is read right from memory; removed, as before', async () => {
      const first = await recognised('QF-88412', '17.08.2026');
      assert.equal(first.part.valuesByTags.supplier, SUPPLIER, JSON.stringify(first.part));
      assert.equal(first.part.valuesByTags.invoiceNo, undefined, 'the generic extraction misses the number');
      assert.equal(first.part.valuesByTags.dueDate, undefined, 'and the due date');

      const validated = await api('PUT', `/api/v2/docForm/${first.id}/recoData/${first.part._id}`, {
        key: admin,
        body: { valuesByTags: { ...first.part.valuesByTags, invoiceNo: 'QF-88412', dueDate: '2026-08-17' } },
      });
      assert.equal(validated.status, 200, validated.text);

      const learnt = await eventually(
        () => api('GET', MEMORY, { key: admin }),
        (r) => r.status === 200 && Object.keys(r.body.suppliers[0]?.places ?? {}).length === 2,
        RECOGNITION_WAIT_MS,
      );
      assert.equal(learnt.body.suppliers.length, 1, learnt.text);
      const [supplier] = learnt.body.suppliers;
      assert.equal(supplier.supplier, 'quillfeather instruments gmbh');
      assert.equal(supplier.places.invoiceNo.label, 'Vorgang');
      assert.equal(supplier.places.invoiceNo.value, 'QF-88412');
      assert.equal(supplier.places.dueDate.label, 'Valuta', 'found as printed, 17.08.2026');
      assert.equal(supplier.places.dueDate.docId, first.id);

      const second = await recognised('QF-90017', '31.08.2026');
      assert.equal(second.part.valuesByTags.invoiceNo, 'QF-90017', JSON.stringify(second.part));
      assert.equal(second.part.valuesByTags.dueDate, '2026-08-31');
      assert.equal(second.part.fieldsByTags.invoiceNo.source, 'memory');
      assert.equal(second.part.fieldsByTags.dueDate.source, 'memory');
      assert.equal(second.part.fieldsByTags.dueDate.raw, '31.08.2026');
      assert.equal(second.part.fieldsByTags.total.source, undefined, 'what the form read stays its own');

      const forgotten = await api('DELETE', `${MEMORY}/${encodeURIComponent(supplier.supplier)}`, {
        key: admin,
      });
      assert.equal(forgotten.status, 204, forgotten.text);
      assert.deepEqual((await api('GET', MEMORY, { key: admin })).body, { form: 'invoice', suppliers: [] });

      const third = await recognised('QF-90018', '07.09.2026');
      assert.equal(third.part.valuesByTags.invoiceNo, undefined, JSON.stringify(third.part));
      assert.equal(third.part.valuesByTags.dueDate, undefined);
    });
  });
}
