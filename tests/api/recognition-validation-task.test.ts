/**
 * Issue 34, "validation only where needed", over HTTP in every mode: a form whose recognition section
 * sets `validation` opens a validation task for its validator when a part is not validated
 * automatically. Fields declared by type: an invoice whose subtotal and tax add up to its total clears
 * the threshold and is validated by recognition; one whose total disagrees (the cross-check lowers the
 * total's confidence) waits for the validator. The task is in the validator's inbox, the validator reads
 * and validates the part, the history says so in words, and the task leaves the inbox. Where the form
 * says so (`waitBefore: 'approval'`), approval does not start until the part is validated.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { textPdf } from '@docflow/recognition';
import {
  createDoc,
  createPerson,
  createRecognised,
  eventually,
  RECOGNITION_WAIT_MS,
} from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { invoiceByTypeForm, invoiceLines } from '../support/invoice-by-type';
import { type Target, targets } from '../support/targets';

const INVOICE = [
  { text: 'INVOICE', size: 28 },
  { text: 'Invoice No. INV-2026-007' },
  { text: 'Total: 99.00' },
];
const THRESHOLD = 90;

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
        body: invoiceByTypeForm('checked', 'Checked invoice', {
          autoValidateAt: THRESHOLD,
          validators: ['valerie@example.com'],
        }),
      });
      assert.equal(put.status, 201, put.text);
      assert.deepEqual(put.body.recognition.validation, {
        autoValidateAt: THRESHOLD,
        validators: [u.valerie],
      });
    });
    after(() => target?.stop());

    const recognised = async (subtotal: string) => {
      const read = await createRecognised(api, target.baseUrl, admin, 'checked', {
        name: 'invoice.pdf',
        content: textPdf([invoiceLines(subtotal)]),
        type: 'application/pdf',
      });
      return { id: read.body._id as string, entry: read.body.recoData[0] };
    };

    it('a part whose every value clears the threshold is validated by recognition, no task opens', async () => {
      const { id, entry } = await recognised('80.00');
      assert.equal(entry.valuesByTags.total, '99.00', JSON.stringify(entry));
      for (const [tag, field] of Object.entries<any>(entry.fieldsByTags))
        assert.ok(field.confidence >= THRESHOLD, `${tag}: ${JSON.stringify(entry.fieldsByTags)}`);
      assert.equal(entry.validated, true);
      assert.equal(entry.validatedBy, 'recognition');
      const inbox = await api('GET', '/api/v2/docForm/view/inbox', as('valerie'));
      assert.ok(!inbox.body.some((d: any) => d._id === id), 'no validation task');
    });

    it('a part whose total disagrees with its subtotal and tax waits for the form\u2019s validator: in her inbox until she validates it', async () => {
      const { id, entry } = await recognised('100.00');
      assert.equal(entry.valuesByTags.invoiceNo, 'INV-2026-007');
      assert.ok(entry.fieldsByTags.total.confidence < THRESHOLD, JSON.stringify(entry.fieldsByTags));
      assert.equal(entry.validated, false, 'a value below the threshold is never validated automatically');
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
        body: {
          valuesByTags: { invoiceNo: 'INV-2026-007', subtotal: '80.00', tax: '19.00', total: '99.00' },
        },
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
          /valerie Test validated recognised values \(invoiceNo, subtotal, tax, total\)$/.test(s),
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
