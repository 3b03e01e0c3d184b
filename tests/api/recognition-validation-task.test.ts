/**
 * Issue 34, "validation only where needed", over HTTP in every mode: a form whose recognition section
 * sets `validation` opens a validation task for its validator when a part is not validated
 * automatically — here a part read by field patterns, which carry no per-field confidence and so are
 * never validated by the machine, whatever the threshold. The task is in the validator's inbox, the
 * validator reads and validates the part, the history says so in words, and the task leaves the inbox.
 * Where the form says so (`waitBefore: 'approval'`), approval does not start until the part is validated.
 * (Automatic validation needs per-field confidences, which the typed extractor of issue 34 produces:
 * its decision is covered by services/document/src/documents/reco-validation.unit.test.ts.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { textPdf } from '@docflow/recognition';
import { createDoc, createPerson, eventually } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';

const INVOICE = [
  { text: 'INVOICE', size: 28 },
  { text: 'Invoice No. INV-2026-007' },
  { text: 'Total: 99.00' },
];
const RECOGNITION_WAIT_MS = 120_000;

for (const factory of targets()) {
  describe(`recognition validation task [${factory.name}]`, { skip: factory.skip, timeout: 300_000 }, () => {
    let target: Target;
    let api: Api;
    let admin: string;
    let svc: string;
    const u: Record<string, string> = {};
    const as = (user: string) => ({ key: svc, runAs: u[user] });

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      admin = target.adminKey;
      for (const name of ['valerie', 'outsider'])
        u[name] = await createPerson(api, admin, `${name}@example.com`);
      const s = await api('POST', '/api/admin/v1/accounts', {
        key: admin,
        body: { kind: 'service', email: 'portal@example.com', name_first: 'P', name_last: 'S' },
      });
      svc = s.body.apiKey;
      const put = await api('PUT', '/api/admin/v1/forms/checked', {
        key: admin,
        body: {
          name: 'checked',
          title: 'Checked invoice',
          formsystype: 9,
          tags: { invoiceNo: 'string', total: 'string' },
          recognition: {
            forms: [
              {
                id: 'inv',
                name: 'Invoice',
                match: ['invoice'],
                fields: { invoiceNo: 'Invoice\\s+No\\.?\\s+(\\S+)', total: 'Total:\\s*(\\S+)' },
              },
            ],
            validation: { autoValidateAt: 0, validators: ['valerie@example.com'] },
          },
        },
      });
      assert.equal(put.status, 201, put.text);
      assert.deepEqual(put.body.recognition.validation, { autoValidateAt: 0, validators: [u.valerie] });
    });
    after(() => target?.stop());

    it('a part read by patterns waits for the form\u2019s validator: in her inbox until she validates it', async () => {
      const created = await createDoc(target.baseUrl, admin, 'checked', {
        docForm: {},
        files: [{ name: 'invoice.pdf', content: textPdf([INVOICE]), type: 'application/pdf' }],
      });
      assert.equal(created.status, 201, created.text);
      const id = created.body._id;
      const read = await eventually(
        () => api('GET', `/api/v2/docForm/${id}?embed=recoData`, { key: admin }),
        (r) => r.body.recoStatus !== 'pending',
        RECOGNITION_WAIT_MS,
      );
      const [entry] = read.body.recoData;
      assert.equal(entry.valuesByTags.invoiceNo, 'INV-2026-007');
      assert.equal(
        entry.validated,
        false,
        'a part without per-field confidence is never validated automatically',
      );
      assert.equal(entry.validatedBy, undefined);

      const inbox = await eventually(
        () => api('GET', '/api/v2/docForm/view/inbox', as('valerie')),
        (r) => r.status === 200 && r.body.some((d: any) => d._id === id),
      );
      assert.ok(
        inbox.body.some((d: any) => d._id === id),
        'in the validator\u2019s inbox',
      );
      assert.equal((await api('GET', `/api/v2/docForm/${id}`, as('outsider'))).status, 404);

      const put = await api('PUT', `/api/v2/docForm/${id}/recoData/${entry._id}`, {
        ...as('valerie'),
        body: { valuesByTags: { invoiceNo: 'INV-2026-007', total: '99.00' } },
      });
      assert.equal(put.status, 200, put.text);
      assert.equal(put.body.validated, true);
      assert.equal(put.body.validatedBy, 'person');

      const after = await eventually(
        () => api('GET', '/api/v2/docForm/view/inbox', as('valerie')),
        (r) => r.status === 200 && !r.body.some((d: any) => d._id === id),
      );
      assert.ok(!after.body.some((d: any) => d._id === id), 'the task left the inbox');

      const history = await api('GET', `/api/v2/docForm/${id}/history`, { key: admin });
      const summaries = history.body.map((e: any) => e.summary);
      assert.ok(
        summaries.includes('Recognised values wait for validation by valerie Test'),
        JSON.stringify(summaries),
      );
      assert.ok(
        summaries.some((s: string) =>
          /valerie Test validated recognised values \(invoiceNo, total\)$/.test(s),
        ),
        JSON.stringify(summaries),
      );
    });

    it('approval waits for the validation where the form says so, then starts', async () => {
      const put = await api('PUT', '/api/admin/v1/forms/held', {
        key: admin,
        body: {
          name: 'held',
          title: 'Held invoice',
          formsystype: 9,
          tags: { invoiceNo: 'string', total: 'string' },
          workflow: { approval: { stages: [{ participants: ['valerie@example.com'] }] } },
          recognition: {
            forms: [
              { id: 'inv', name: 'Invoice', match: ['invoice'], fields: { total: 'Total:\\s*(\\S+)' } },
            ],
            validation: { validators: ['valerie@example.com'], waitBefore: 'approval' },
          },
        },
      });
      assert.equal(put.status, 201, put.text);
      const created = await createDoc(target.baseUrl, admin, 'held', {
        docForm: {},
        docResponse: { taskstatus: 100 },
        files: [{ name: 'invoice.pdf', content: textPdf([INVOICE]), type: 'application/pdf' }],
      });
      assert.equal(created.status, 201, created.text);
      assert.match(created.headers.get('x-error') ?? '', /approval waits for recognition/);
      assert.equal(created.body.state, 0, 'still in registration');
      const id = created.body._id;
      const read = await eventually(
        () => api('GET', `/api/v2/docForm/${id}?embed=recoData`, { key: admin }),
        (r) => r.body.recoStatus !== 'pending',
        RECOGNITION_WAIT_MS,
      );
      const start = () =>
        api('POST', `/api/v2/docForm/${id}/docResponse`, {
          key: admin,
          body: { docResponse: { taskstatus: 100 } },
        });
      const refused = await start();
      assert.equal(refused.status, 422, refused.text);
      assert.match(refused.body.detail, /approval waits for the validation of the recognised values/);

      const [entry] = read.body.recoData;
      const validated = await api('PUT', `/api/v2/docForm/${id}/recoData/${entry._id}`, {
        ...as('valerie'),
        body: { valuesByTags: { total: '99.00' } },
      });
      assert.equal(validated.status, 200, validated.text);
      const started = await start();
      assert.equal(started.status, 200, started.text);
      assert.equal(started.body.state, 1, 'approval started');
    });
  });
}
