/**
 * Recognition end to end over HTTP, in every mode: attachments generated here (an invoice image, a
 * two-page scan holding two forms, a text PDF, a corrupt file) are recognised after creation, without
 * creation waiting for OCR; `recoData` has the contract's shape; manual validation is an event.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drawPage, drawPageEncoded, imagePdf, textPdf } from '@docflow/recognition';
import { createDoc, eventually } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';

const INVOICE = [
  { text: 'INVOICE', size: 28 },
  { text: 'ACME GmbH, Hauptstrasse 1, 10115 Berlin' },
  { text: 'Invoice No. INV-2026-001' },
  { text: 'Total: 1,234.50' },
];
const DELIVERY_NOTE = [
  { text: 'DELIVERY NOTE', size: 28 },
  { text: 'Supplier: ACME GmbH' },
  { text: 'Delivered on 2026-03-15, 3 pallets' },
];
const RECOGNITION_WAIT_MS = 120_000;

for (const factory of targets()) {
  describe(`recognition [${factory.name}]`, { skip: factory.skip, timeout: 400_000 }, () => {
    let target: Target;
    let api: Api;
    let admin: string;

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      admin = target.adminKey;
    });
    after(() => target?.stop());

    async function createInvoiceDoc(
      name: string,
      content: Uint8Array,
      type: string,
      query = '',
      docForm: unknown = {},
    ) {
      const res = await createDoc(
        target.baseUrl,
        admin,
        'invoice',
        { docForm, files: [{ name, content, type }] },
        { query },
      );
      assert.equal(res.status, 201, res.text);
      return res.body;
    }
    const recognized = (id: string) =>
      eventually(
        () => api('GET', `/api/v2/docForm/${id}?embed=recoData`, { key: admin }),
        (r) => r.body.recoStatus !== 'pending',
        RECOGNITION_WAIT_MS,
      );

    it('an invoice image: one recoData entry of the contract\u2019s shape; empty values are filled in', async () => {
      const doc = await createInvoiceDoc(
        'invoice.png',
        await drawPageEncoded(INVOICE, 'png'),
        'image/png',
        '',
        {
          valuesByTags: { supplier: 'given by hand' },
        },
      );
      assert.equal(doc.recoStatus, 'pending', 'creation does not wait for OCR');
      const res = await recognized(doc._id);
      assert.equal(res.body.recoStatus, 'done', JSON.stringify(res.body));
      assert.equal(res.body.recoData.length, 1);
      const [entry] = res.body.recoData;
      assert.match(entry._id, /^[0-9a-f]{24}$/);
      assert.equal(entry.pageIdxStart, 0);
      assert.equal(entry.pageIdxEnd, 0);
      assert.equal(entry.validated, false);
      assert.deepEqual(entry.recoForm, { form: null, id: 'inv', name: 'Invoice' });
      assert.deepEqual(entry.recoResult.recoForm, entry.recoForm);
      assert.ok(entry.recoResult.recoFormConfidence > 50 && entry.recoResult.recoFormConfidence <= 100);
      assert.equal(entry.valuesByTags.invoiceNo, 'INV-2026-001');
      // The prebuilt invoice form normalises (issue 34); how each value was read comes beside it.
      assert.equal(entry.valuesByTags.total, '1234.50');
      assert.equal(entry.fieldsByTags.total.raw, '1,234.50');
      assert.equal(entry.fieldsByTags.total.pageIdx, 0);
      assert.ok(entry.fieldsByTags.total.confidence > 0 && entry.fieldsByTags.total.confidence <= 100);
      assert.equal(res.body.valuesByTags.invoiceNo, 'INV-2026-001');
      assert.equal(res.body.valuesByTags.supplier, 'given by hand', 'a value already set stays');
      const history = await api('GET', `/api/v2/docForm/${doc._id}/history`, { key: admin });
      assert.ok(history.body.some((e: any) => e.type === 'RecognitionRecorded'));
    });

    it('a two-page scan holding two forms: two entries with their page ranges', async () => {
      const pdf = imagePdf([drawPage(INVOICE), drawPage(DELIVERY_NOTE)]);
      const doc = await createInvoiceDoc('scan.pdf', pdf, 'application/pdf');
      const res = await recognized(doc._id);
      const entries = res.body.recoData.map((e: any) => [e.recoForm.id, e.pageIdxStart, e.pageIdxEnd]);
      assert.deepEqual(entries, [
        ['inv', 0, 0],
        ['dn', 1, 1],
      ]);
      assert.match(String(res.body.recoData[1].valuesByTags.supplier), /^ACME GmbH/);
    });

    it('a text PDF uses its text layer (and OCR when idpFrpr=true)', async () => {
      for (const query of ['', '?idpFrpr=true']) {
        const doc = await createInvoiceDoc('invoice.pdf', textPdf([INVOICE]), 'application/pdf', query);
        const res = await recognized(doc._id);
        assert.equal(res.body.recoData.length, 1, query);
        assert.equal(res.body.recoData[0].valuesByTags.invoiceNo, 'INV-2026-001', query);
      }
    });

    it('a corrupt file is a recorded failure, not a crash; the next one is recognised', async () => {
      const png = await drawPageEncoded(INVOICE, 'png');
      const doc = await createInvoiceDoc('broken.png', png.subarray(0, 60), 'image/png');
      const res = await recognized(doc._id);
      assert.equal(res.body.recoStatus, 'failed');
      assert.deepEqual(res.body.recoData, []);
      const history = await api('GET', `/api/v2/docForm/${doc._id}/history`, { key: admin });
      assert.ok(history.body.some((e: any) => e.type === 'RecognitionFailed'));
      const next = await createInvoiceDoc('ok.png', png, 'image/png');
      assert.equal((await recognized(next._id)).body.recoStatus, 'done');
    });

    it('a form whose field pattern backtracks exponentially: recognised, and /healthz answers all the while', async () => {
      const formWith = (run: string) => ({
        name: 'redos',
        title: 'Hostile pattern',
        formsystype: 9,
        tags: { invoiceNo: 'string', run: 'string' },
        recognition: {
          forms: [
            {
              id: 'inv',
              name: 'Invoice',
              match: ['invoice'],
              fields: { invoiceNo: 'Invoice\\s+No\\.?\\s+(\\S+)', run },
            },
          ],
        },
      });
      const refused = await api('PUT', '/api/admin/v1/forms/redos', { key: admin, body: formWith('(a)\\1') });
      assert.equal(refused.status, 400, refused.text);
      const issue = refused.body.errors.find((e: any) => e.pointer === 'body.recognition.forms.0.fields.run');
      assert.match(issue?.message ?? refused.text, /not supported by the RE2 engine/);
      const put = await api('PUT', '/api/admin/v1/forms/redos', { key: admin, body: formWith('(a+)+$') });
      assert.equal(put.status, 201, put.text);

      // A backtracking engine takes about 2^40 steps over this page (40 a's, then a ! that fails `$`).
      const pdf = textPdf([
        [{ text: 'INVOICE' }, { text: 'Invoice No. R-1' }, { text: `${'a'.repeat(40)}!` }],
      ]);
      const created = await createDoc(target.baseUrl, admin, 'redos', {
        docForm: {},
        files: [{ name: 'hostile.pdf', content: pdf, type: 'application/pdf' }],
      });
      assert.equal(created.status, 201, created.text);

      // Liveness, not speed: every probe must be answered within its own bound while recognition runs.
      const unanswered: string[] = [];
      let probes = 0;
      let recognising = true;
      const probing = (async () => {
        while (recognising) {
          try {
            const res = await fetch(`${target.baseUrl}/healthz`, { signal: AbortSignal.timeout(2000) });
            await res.arrayBuffer();
            if (res.status !== 200) unanswered.push(`status ${res.status}`);
          } catch (err) {
            unanswered.push(String(err));
          }
          probes++;
          await new Promise((r) => setTimeout(r, 25));
        }
      })();
      const outcome = await recognized(created.body._id)
        .then(
          (read) => ({ read }),
          (err: unknown) => ({ err }),
        )
        .finally(() => {
          recognising = false;
        });
      await probing;
      assert.deepEqual(unanswered, [], `/healthz did not answer ${unanswered.length} of ${probes} probes`);
      assert.ok(probes > 0);
      assert.ok('read' in outcome, `the document could not be read: ${'err' in outcome ? outcome.err : ''}`);
      const res = outcome.read;
      assert.equal(res.body.recoStatus, 'done', JSON.stringify(res.body));
      assert.deepEqual(res.body.recoData[0].valuesByTags, { invoiceNo: 'R-1' });
    });

    it('only installed OCR languages are accepted (400)', async () => {
      for (const q of ['?idpLangs=deu', '?idpLangs=eng%2Bdeu']) {
        const res = await createDoc(target.baseUrl, admin, 'invoice', { docForm: {} }, { query: q });
        assert.equal(res.status, 400, res.text);
      }
    });

    it('manual validation replaces an entry\u2019s values, marks it validated, and is an event', async () => {
      const doc = await createInvoiceDoc('invoice.png', await drawPageEncoded(INVOICE, 'png'), 'image/png');
      const [entry] = (await recognized(doc._id)).body.recoData;
      const put = await api('PUT', `/api/v2/docForm/${doc._id}/recoData/${entry._id}`, {
        key: admin,
        body: { valuesByTags: { invoiceNo: 'INV-2026-001-A', total: '1234.50' } },
      });
      assert.equal(put.status, 200, put.text);
      assert.equal(put.body.validated, true);
      const read = await api('GET', `/api/v2/docForm/${doc._id}?embed=recoResult`, { key: admin });
      assert.equal(read.body.recoData[0].valuesByTags.invoiceNo, 'INV-2026-001-A');
      assert.equal(read.body.recoData[0].validated, true);
      const history = await api('GET', `/api/v2/docForm/${doc._id}/history`, { key: admin });
      assert.ok(history.body.some((e: any) => e.type === 'RecoDataValidated'));
      const bad = await api('PUT', `/api/v2/docForm/${doc._id}/recoData/${entry._id}`, {
        key: admin,
        body: { valuesByTags: { nosuchtag: 'x' } },
      });
      assert.equal(bad.status, 400);
      const missing = await api('PUT', `/api/v2/docForm/${doc._id}/recoData/0123456789abcdef01234567`, {
        key: admin,
        body: { valuesByTags: {} },
      });
      assert.equal(missing.status, 404);
    });
  });
}
