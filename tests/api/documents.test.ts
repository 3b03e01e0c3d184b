/** Forms, documents, attachments, history and views over real HTTP through the gateway, in every mode. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDoc, createPerson, eventually } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';

const MAX_UPLOAD = 4 * 1024 * 1024;

function assertProblem(res: { status: number; headers: Headers; body: any; text?: string }, status: number) {
  assert.equal(res.status, status, res.text ?? JSON.stringify(res.body));
  assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
  assert.equal(res.body.status, status);
}

const testForm = {
  name: 'testform',
  title: 'Test form',
  formsystype: 7,
  tags: { subject: 'string', amount: 'string', lines: 'table' },
  workflow: { approval: { stages: [{ participants: ['bob@example.com'] }] }, dueDays: 3 },
};

for (const factory of targets({ env: { DOCFLOW_MAX_UPLOAD_BYTES: String(MAX_UPLOAD) } })) {
  describe(`documents API [${factory.name}]`, { skip: factory.skip, timeout: 300_000 }, () => {
    let target: Target;
    let api: Api;
    let admin: string;
    let alice: string;
    let aliceSvcKey: string;
    const create = (
      formName: string,
      parts: Parameters<typeof createDoc>[3],
      options?: Parameters<typeof createDoc>[4],
    ) => createDoc(target.baseUrl, admin, formName, parts, options);

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      admin = target.adminKey;
      alice = await createPerson(api, admin, 'alice@example.com');
      // testform's approver: a form names only accounts that exist (issue 33).
      await createPerson(api, admin, 'bob@example.com');
      const svc = await api('POST', '/api/admin/v1/accounts', {
        key: admin,
        body: { kind: 'service', email: 'portal@example.com', name_first: 'Portal', name_last: 'Svc' },
      });
      aliceSvcKey = svc.body.apiKey;
      const put = await api('PUT', '/api/admin/v1/forms/testform', { key: admin, body: testForm });
      assert.equal(put.status, 201, put.text);
    });
    after(() => target?.stop());

    describe('forms', () => {
      it('ships the sample forms', async () => {
        for (const name of ['memo', 'invoice', 'contract']) {
          const res = await api('GET', `/api/admin/v1/forms/${name}`, { key: admin });
          assert.equal(res.status, 200, res.text);
          assert.equal(res.body.name, name);
        }
        const invoice = await api('GET', '/api/admin/v1/forms/invoice', { key: admin });
        assert.equal(invoice.body.recognition.forms[0].id, 'inv');
      });
      it('defines, reads and redefines a form; the same definition again changes nothing', async () => {
        const read = await api('GET', '/api/admin/v1/forms/testform', { key: admin });
        assert.equal(read.status, 200);
        assert.deepEqual(read.body.tags, testForm.tags);
        assert.equal(read.body._meta._rev, 1);
        const same = await api('PUT', '/api/admin/v1/forms/testform', { key: admin, body: testForm });
        assert.equal(same.status, 200);
        assert.equal(same.body._meta._rev, 1);
        const changed = await api('PUT', '/api/admin/v1/forms/other', {
          key: admin,
          body: { ...testForm, name: 'other', title: 'Other' },
        });
        assert.equal(changed.status, 201);
      });
      it('accepts the shape of DESIGN.md as it is', async () => {
        await createPerson(api, admin, 'dave@example.com');
        const carol = await createPerson(api, admin, 'carol@example.com');
        const memo = {
          name: 'memo2',
          title: 'Internal memo',
          formsystype: 1,
          tags: { subject: 'string', lines: 'table' },
          workflow: {
            approval: { stages: [{ participants: ['bob@example.com'] }], next: 'sign' },
            sign: { stages: [{ participants: [carol] }] },
            execution: { stages: [{ participants: ['dave@example.com'] }] },
            dueDays: 5,
          },
          recognition: {
            forms: [
              {
                id: 'inv',
                name: 'Invoice',
                match: ['invoice', 'total'],
                fields: { invoiceNo: 'Invoice\\s+(?:No|Number)\\.?\\s+(\\w+)' },
              },
            ],
          },
        };
        const res = await api('PUT', '/api/admin/v1/forms/memo2', { key: admin, body: memo });
        assert.equal(res.status, 201, res.text);
      });
      it('rejects unknown keys, a name that differs from the path, a bad pattern, a next phase not configured', async () => {
        for (const body of [
          { ...testForm, color: 'blue' },
          { ...testForm, name: 'another' },
          { ...testForm, tags: { subject: 'number' } },
          {
            ...testForm,
            recognition: { forms: [{ id: 'x', name: 'X', match: ['a'], fields: { subject: '(unclosed' } }] },
          },
          { ...testForm, workflow: { approval: { stages: [{ participants: ['a@b.c'] }], next: 'sign' } } },
        ]) {
          assertProblem(await api('PUT', '/api/admin/v1/forms/testform', { key: admin, body }), 400);
        }
      });
      it('404 for an unknown form, 403 without svcAdminSysRW', async () => {
        assertProblem(await api('GET', '/api/admin/v1/forms/nosuchform', { key: admin }), 404);
        assertProblem(await api('GET', '/api/admin/v1/forms/memo', { key: aliceSvcKey }), 403);
        assertProblem(
          await api('PUT', '/api/admin/v1/forms/testform', { key: aliceSvcKey, body: testForm }),
          403,
        );
      });
    });

    describe('create', () => {
      it('creates a document with values, tags and files: 201 with every field of the contract', async () => {
        const res = await create('testform', {
          docForm: {
            valuesByTags: {
              subject: 'Hello',
              lines: [
                ['a', '1'],
                ['b', '2'],
              ],
            },
            _tags: ['x', 'y', 'x'],
          },
          files: [
            { name: 'a.txt', content: 'first file', type: 'text/plain' },
            { name: 'b.bin', content: new Uint8Array([0, 1, 2, 255]) },
          ],
        });
        assert.equal(res.status, 201, res.text);
        const d = res.body;
        assert.match(d._id, /^[0-9a-f]{24}$/);
        assert.match(d._id_web, /^[A-Za-z0-9_-]{8,}$/);
        assert.equal(d._meta._rev, 1);
        assert.equal(d.author, 'usr-00000000-0000-0000-0000-000000000001');
        assert.deepEqual([d.state, d.step, d.iteration, d.status], [0, 0, 0, 1]);
        assert.equal(d.formsystype, 7);
        assert.match(d.datecreated, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        assert.equal(Date.parse(d.datedue) - Date.parse(d.datecreated), 3 * 86_400_000);
        assert.deepEqual(d.valuesByTags, {
          subject: 'Hello',
          lines: [
            ['a', '1'],
            ['b', '2'],
          ],
        });
        assert.deepEqual(d._tags, ['x', 'y']);
        assert.deepEqual(
          d.filesList.map((f: { fileName: string }) => f.fileName),
          ['a.txt', 'b.bin'],
        );
        for (const f of d.filesList) assert.match(f.id, /^[0-9a-f]{24}$/);
        assert.ok(!res.headers.get('x-error'));
      });
      it('a form without dueDays gives datedue ""; no docForm part gives empty values', async () => {
        const res = await create('contract', {});
        assert.equal(res.status, 201, res.text);
        assert.equal(res.body.datedue, '');
        assert.deepEqual(res.body.valuesByTags, {});
      });
      it('a requested workflow action that cannot be applied: 201 with X-Error', async () => {
        // The sample form contract configures no approval.
        const res = await create('contract', { docForm: {}, docResponse: { taskstatus: 100 } });
        assert.equal(res.status, 201, res.text);
        assert.ok((res.headers.get('x-error') ?? '').length > 0);
        assert.equal(res.body.state, 0);
      });
      it('400 for a taskstatus not allowed on create, malformed JSON, values that do not fit the form', async () => {
        assertProblem(await create('testform', { docForm: {}, docResponse: { taskstatus: 101 } }), 400);
        assertProblem(await create('testform', { docForm: {}, docResponse: { taskstatus: 2 } }), 400);
        assertProblem(await create('testform', { rawDocForm: '{"valuesByTags": ' }), 400);
        assertProblem(await create('testform', { docForm: { valuesByTags: { nosuchtag: 'x' } } }), 400);
        assertProblem(await create('testform', { docForm: { valuesByTags: { subject: [['table']] } } }), 400);
        assertProblem(await create('testform', { docForm: { valuesByTags: { lines: 'not a table' } } }), 400);
        assertProblem(await create('testform', { docForm: { valuesByTags: { subject: 42 } } }), 400);
        assertProblem(await create('testform', { docForm: { valuesByTags: {}, unknown: 1 } }), 400);
        assertProblem(await create('testform', { docForm: { _tags: 'not-an-array' } }), 400);
      });
      it('validates the query parameters', async () => {
        for (const q of ['?allowDupl=maybe', '?idpFrpr=1', '?idpLangs=english', '?idpLangs=eng%2B']) {
          assertProblem(await create('testform', { docForm: {} }, { query: q }), 400);
        }
        const ok = await create(
          'testform',
          { docForm: {} },
          { query: '?allowDupl=true&idpLangs=eng&idpFrpr=false' },
        );
        assert.equal(ok.status, 201, ok.text);
      });
      it('404 for an unknown form, 415 for a body that is not multipart', async () => {
        assertProblem(await create('nosuchform', { docForm: {} }), 404);
        assertProblem(
          await api('POST', '/api/v2/docForm/form/testform', { key: admin, body: { valuesByTags: {} } }),
          415,
        );
      });
      it('author: another account needs svcAdminDocsRW (403), must exist (400)', async () => {
        const asAdmin = await create('testform', { docForm: { author: alice } });
        assert.equal(asAdmin.status, 201, asAdmin.text);
        assert.equal(asAdmin.body.author, alice);
        const bob = await createPerson(api, admin, 'bob-author@example.com');
        const denied = await createDoc(
          target.baseUrl,
          aliceSvcKey,
          'testform',
          { docForm: { author: bob } },
          { runAs: alice },
        );
        assertProblem(denied, 403);
        assertProblem(
          await create('testform', { docForm: { author: 'usr-00000000-0000-4000-8000-00000000beef' } }),
          400,
        );
        const own = await createDoc(
          target.baseUrl,
          aliceSvcKey,
          'testform',
          { docForm: {} },
          { runAs: 'alice@example.com' },
        );
        assert.equal(own.status, 201);
        assert.equal(own.body.author, alice);
      });
      it('413 for a file larger than the configured maximum', async () => {
        const big = new Uint8Array(MAX_UPLOAD + 1024);
        assertProblem(
          await create('testform', { docForm: {}, files: [{ name: 'big.bin', content: big }] }),
          413,
        );
      });
    });

    describe('read, history and download', () => {
      let doc: any;
      const name = 'Übersicht – Q3 «2026» 日本語.txt';
      const content = `Grüße ${Date.now()}\n`;
      before(async () => {
        const res = await create('testform', {
          docForm: { valuesByTags: { subject: 'Read me', amount: '12.50' }, _tags: ['read'] },
          files: [{ name, content, type: 'text/plain; charset=utf-8' }],
        });
        assert.equal(res.status, 201, res.text);
        doc = res.body;
      });

      it('the same document by _id and by _id_web', async () => {
        const byId = await api('GET', `/api/v2/docForm/${doc._id}`, { key: admin });
        const byWeb = await api('GET', `/api/v2/docForm/${doc._id_web}`, { key: admin });
        assert.equal(byId.status, 200);
        assert.deepEqual(byId.body, doc);
        assert.deepEqual(byWeb.body, doc);
      });
      it('fields keeps the named top-level fields plus _id and _id_web', async () => {
        const res = await api('GET', `/api/v2/docForm/${doc._id}?fields=valuesByTags,status`, { key: admin });
        assert.deepEqual(Object.keys(res.body).sort(), ['_id', '_id_web', 'status', 'valuesByTags']);
      });
      it('embed adds entities (kept by fields) and rejects unknown names', async () => {
        const res = await api('GET', `/api/v2/docForm/${doc._id}?embed=recoData,docResponse&fields=status`, {
          key: admin,
        });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(Object.keys(res.body).sort(), [
          '_id',
          '_id_web',
          'docResponse',
          'recoData',
          'status',
        ]);
        assert.deepEqual(res.body.recoData, []);
        const all = await api('GET', `/api/v2/docForm/${doc._id}?embed=recoResult,valuesByTags,filesList`, {
          key: admin,
        });
        assert.equal(all.status, 200);
        assertProblem(await api('GET', `/api/v2/docForm/${doc._id}?embed=bogus`, { key: admin }), 400);
      });
      it('?rev=N returns the document as it was at revision N; beyond the last: 404; 0: 400', async () => {
        const atOne = await api('GET', `/api/v2/docForm/${doc._id}?rev=1`, { key: admin });
        assert.deepEqual(atOne.body, doc);
        assertProblem(await api('GET', `/api/v2/docForm/${doc._id}?rev=2`, { key: admin }), 404);
        assertProblem(await api('GET', `/api/v2/docForm/${doc._id}?rev=0`, { key: admin }), 400);
        assertProblem(await api('GET', `/api/v2/docForm/${doc._id}?rev=abc`, { key: admin }), 400);
      });
      it('history lists the events with actor, run-as user and data', async () => {
        const viaRunAs = await createDoc(
          target.baseUrl,
          aliceSvcKey,
          'testform',
          { docForm: {} },
          { runAs: alice },
        );
        const res = await api('GET', `/api/v2/docForm/${viaRunAs.body._id}/history`, { key: admin });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.length, 1);
        const [created] = res.body;
        assert.equal(created.rev, 1);
        assert.equal(created.type, 'DocumentCreated');
        assert.match(created.time, /Z$/);
        assert.equal(created.runAs, alice);
        assert.match(created.actor, /^usr-/);
        assert.notEqual(created.actor, alice);
        assert.equal(created.data.author, alice);
      });
      it('downloads an attachment: bytes, octet-stream and a UTF-8 file name that round-trips', async () => {
        const res = await fetch(
          `${target.baseUrl}/api/v2/docForm/${doc._id_web}/file/${doc.filesList[0].id}`,
          {
            headers: { authorization: `Bearer ${admin}` },
          },
        );
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('content-type'), 'application/octet-stream');
        const disposition = res.headers.get('content-disposition') ?? '';
        assert.match(disposition, /^attachment;/);
        const encoded = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
        assert.equal(decodeURIComponent(encoded ?? ''), name);
        assert.equal(await res.text(), content);
      });
      it('404 for unknown documents and files; 404 for a document the caller may not read', async () => {
        assertProblem(await api('GET', '/api/v2/docForm/0123456789abcdef01234567', { key: admin }), 404);
        assertProblem(await api('GET', '/api/v2/docForm/not-a-document-id', { key: admin }), 404);
        assertProblem(
          await api('GET', `/api/v2/docForm/${doc._id}/file/0123456789abcdef01234567`, { key: admin }),
          404,
        );
        assertProblem(await api('GET', `/api/v2/docForm/${doc._id}/file/xyz`, { key: admin }), 400);
        assertProblem(
          await api('GET', `/api/v2/docForm/${doc._id}`, { key: aliceSvcKey, runAs: alice }),
          404,
        );
        assertProblem(
          await api('GET', `/api/v2/docForm/${doc._id}/history`, { key: aliceSvcKey, runAs: alice }),
          404,
        );
        assertProblem(
          await api('GET', `/api/v2/docForm/${doc._id}/file/${doc.filesList[0].id}`, {
            key: aliceSvcKey,
            runAs: alice,
          }),
          404,
        );
      });
    });

    describe('duplicate attachments', () => {
      it('allowDupl=false: 409 for a file whose content is attached to a live document, naming no document', async () => {
        const bytes = `duplicate me ${Math.random()}`;
        const first = await create('testform', { files: [{ name: 'one.txt', content: bytes }] });
        assert.equal(first.status, 201, first.text);
        const dup = await create(
          'testform',
          { files: [{ name: 'two.txt', content: bytes }] },
          { query: '?allowDupl=false' },
        );
        assertProblem(dup, 409);
        assert.ok(!dup.text.includes(first.body._id) && !dup.text.includes(first.body._id_web));
        const allowed = await create('testform', { files: [{ name: 'three.txt', content: bytes }] });
        assert.equal(allowed.status, 201);
        const fresh = await create(
          'testform',
          { files: [{ name: 'new.txt', content: `${bytes}!` }] },
          { query: '?allowDupl=false' },
        );
        assert.equal(fresh.status, 201, fresh.text);
      });

      it('allowDupl=false accepts again the content of a document that was deleted', async () => {
        const bytes = `deleted duplicate ${Math.random()}`;
        const first = await create('testform', { files: [{ name: 'one.txt', content: bytes }] });
        assert.equal(first.status, 201, first.text);
        const deleted = await api('POST', `/api/v2/docForm/${first.body._id}/docResponse`, {
          key: admin,
          body: { docResponse: { taskstatus: 111 } },
        });
        assert.equal(deleted.status, 200, deleted.text);
        // The files service learns of the deletion from the document's events on the bus.
        const again = await eventually(
          () =>
            create(
              'testform',
              { files: [{ name: 'again.txt', content: bytes }] },
              { query: '?allowDupl=false' },
            ),
          (r) => r.status !== 409,
        );
        assert.equal(again.status, 201, again.text);
      });
    });

    describe('views', () => {
      let bobSvcKey: string;
      let bob: string;
      const mine: string[] = [];

      before(async () => {
        bob = await createPerson(api, admin, 'bob-views@example.com');
        const svc = await api('POST', '/api/admin/v1/accounts', {
          key: admin,
          body: { kind: 'service', email: 'views-svc@example.com', name_first: 'V', name_last: 'S' },
        });
        bobSvcKey = svc.body.apiKey;
        // 12 documents by bob: forms alternate, tags vary, newest last.
        for (let i = 0; i < 12; i++) {
          const res = await createDoc(
            target.baseUrl,
            bobSvcKey,
            i % 2 ? 'contract' : 'testform',
            { docForm: { _tags: i % 3 === 0 ? ['red', 'big'] : ['red'] } },
            { runAs: bob },
          );
          assert.equal(res.status, 201, res.text);
          mine.push(res.body._id);
        }
      });

      /** As bob (through a service account), or as the admin service account itself. */
      const view = (path: string, as: 'bob' | 'admin' = 'bob') =>
        api(
          'GET',
          `/api/v2/docForm/view/${path}`,
          as === 'bob' ? { key: bobSvcKey, runAs: bob } : { key: admin },
        );
      const settled = (path: string, expected: number) =>
        eventually(
          () => view(path),
          (r) => r.headers.get('svc-total-count') === String(expected),
        );

      it('mydocs: newest first, default page of 10, svc-total-count before paging', async () => {
        const res = await settled('mydocs', 12);
        assert.equal(res.status, 200, res.text);
        assert.equal(res.headers.get('svc-total-count'), '12');
        assert.equal(res.body.length, 10);
        assert.deepEqual(
          res.body.map((d: any) => d._id),
          [...mine].reverse().slice(0, 10),
        );
        for (const d of res.body) assert.ok(d._id_web && Array.isArray(d.filesList));
      });
      it('paging with first and pageSize', async () => {
        const page = await view('mydocs?first=10&pageSize=5');
        assert.deepEqual(
          page.body.map((d: any) => d._id),
          [...mine].reverse().slice(10),
        );
        assert.equal(page.headers.get('svc-total-count'), '12');
        const one = await view('mydocs?pageSize=1&first=3');
        assert.deepEqual(
          one.body.map((d: any) => d._id),
          [[...mine].reverse()[3]],
        );
        assert.equal((await view('mydocs?first=2147483646')).body.length, 0);
        assert.equal((await view('mydocs?pageSize=100')).body.length, 12);
      });
      it('every bound of every parameter: 400 just outside, 200 on it, 400 for non-integers', async () => {
        const bounds: Array<[string, number, number]> = [
          ['first', 0, 2147483646],
          ['pageSize', 1, 100],
          ['state', 0, 100],
          ['step', 0, 100],
          ['iteration', 0, 100],
          ['status', 1, 10],
        ];
        for (const [name, min, max] of bounds) {
          assert.equal((await view(`mydocs?${name}=${min}`)).status, 200, `${name}=${min}`);
          assert.equal((await view(`mydocs?${name}=${max}`)).status, 200, `${name}=${max}`);
          assertProblem(await view(`mydocs?${name}=${min - 1}`), 400);
          assertProblem(await view(`mydocs?${name}=${max + 1}`), 400);
          for (const bad of ['1.5', 'abc', '', '1e2'])
            assertProblem(await view(`mydocs?${name}=${bad}`), 400);
        }
        assertProblem(await view('nosuchview'), 400);
      });
      it('filters: state/step/iteration/status, form (OR), author (OR), tags (AND)', async () => {
        assert.equal(
          (await view('mydocs?state=0&step=0&iteration=0&status=1')).headers.get('svc-total-count'),
          '12',
        );
        assert.equal((await view('mydocs?state=1')).headers.get('svc-total-count'), '0');
        assert.equal((await view('mydocs?status=2')).headers.get('svc-total-count'), '0');
        assert.equal((await view('mydocs?form=contract')).headers.get('svc-total-count'), '6');
        assert.equal((await view('mydocs?form=contract,testform')).headers.get('svc-total-count'), '12');
        assert.equal((await view('mydocs?form=nosuch')).headers.get('svc-total-count'), '0');
        assert.equal((await view('mydocs?tags=red')).headers.get('svc-total-count'), '12');
        assert.equal((await view('mydocs?tags=red,big')).headers.get('svc-total-count'), '4');
        assert.equal((await view('mydocs?tags=big,nosuch')).headers.get('svc-total-count'), '0');
        const byAuthor = await view(`all?author=${bob},${alice}&pageSize=100`, 'admin');
        assert.ok(byAuthor.body.every((d: any) => d.author === bob || d.author === alice));
        assert.ok(byAuthor.body.some((d: any) => d.author === alice));
        assert.equal(byAuthor.body.filter((d: any) => d.author === bob).length, 12);
      });
      it('all: what the caller may read (own documents; every document with svcAdminDocsRW)', async () => {
        const own = await view('all?pageSize=100');
        assert.equal(own.headers.get('svc-total-count'), '12');
        const everything = await view('all?pageSize=100', 'admin');
        assert.ok(Number(everything.headers.get('svc-total-count')) > 12);
      });
      it('inbox: no open task for the caller, so none', async () => {
        const res = await view('inbox');
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('svc-total-count'), '0');
        assert.deepEqual(res.body, []);
      });
      it('dropping and rebuilding the read model gives identical answers', async () => {
        const queries = ['all?pageSize=100', 'mydocs?tags=red,big', 'all?form=contract&first=1&pageSize=3'];
        const before = await Promise.all(queries.map((q) => view(q, 'admin')));
        const rebuilt = await api('POST', '/api/admin/v1/views/rebuild', { key: admin });
        assert.equal(rebuilt.status, 200, rebuilt.text);
        assert.ok(rebuilt.body.applied > 12);
        const after = await Promise.all(queries.map((q) => view(q, 'admin')));
        for (let i = 0; i < queries.length; i++) {
          assert.equal(after[i]!.headers.get('svc-total-count'), before[i]!.headers.get('svc-total-count'));
          assert.deepEqual(after[i]!.body, before[i]!.body);
        }
        assertProblem(await api('POST', '/api/admin/v1/views/rebuild', { key: bobSvcKey }), 403);
      });
    });
  });
}
