/**
 * Full-text search of the views (`?q=`) over real HTTP, in every mode: values, tags, attachment names
 * and the recognised text of an attachment are found; the access rules and filters of the view hold;
 * the better match is listed first; svc-total-count counts the matches; FTS5 syntax in q is only
 * characters between words. A search of common words only (DOCFLOW_SEARCH_COMMON_DOCS lowered to
 * COMMON_DOCS here) is listed newest first and, with that many matches, counted up to that many
 * (svc-total-count-relation: gte).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drawPageEncoded } from '@docflow/recognition';
import { createDoc, createPerson, eventually } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';

const RECOGNITION_WAIT_MS = 120_000;
/** DOCFLOW_SEARCH_COMMON_DOCS of the target: more documents than any other word of the suite is in. */
const COMMON_DOCS = 4;

const searchForm = {
  name: 'searchform',
  title: 'Search form',
  formsystype: 9,
  tags: { subject: 'string', lines: 'table' },
};

/** An invoice whose scan holds a line no field takes: only its recognised text has "Quokka". */
const SCANNED_INVOICE = [
  { text: 'INVOICE', size: 28 },
  { text: 'ACME GmbH, Hauptstrasse 1, 10115 Berlin' },
  { text: 'Invoice No. INV-2026-001' },
  { text: 'Total: 1,234.50' },
  { text: 'Reference: Quokka Lagoon' },
];

for (const factory of targets({ env: { DOCFLOW_SEARCH_COMMON_DOCS: String(COMMON_DOCS) } })) {
  describe(`search [${factory.name}]`, { skip: factory.skip, timeout: 400_000 }, () => {
    let target: Target;
    let api: Api;
    let admin: string;
    let bob: string;
    let bobKey: string;
    let alice: string;
    const ids: Record<string, string> = {};

    /** As bob (a person, through a service account without admin roles) or as the admin account. */
    const list = (path: string, as: 'bob' | 'admin' = 'bob') =>
      api('GET', `/api/v2/docForm/view/${path}`, as === 'bob' ? { key: bobKey, runAs: bob } : { key: admin });
    const listed = (res: { body: any }) => (res.body as any[]).map((d) => d._id);
    /** Lists until the view has caught up to `total` matches. */
    const settled = (path: string, total: number, as: 'bob' | 'admin' = 'bob') =>
      eventually(
        () => list(path, as),
        (r) => r.headers.get('svc-total-count') === String(total),
      );

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      admin = target.adminKey;
      bob = await createPerson(api, admin, 'bob-search@example.com');
      alice = await createPerson(api, admin, 'alice-search@example.com');
      const svc = await api('POST', '/api/admin/v1/accounts', {
        key: admin,
        body: { kind: 'service', email: 'search-svc@example.com', name_first: 'S', name_last: 'S' },
      });
      bobKey = svc.body.apiKey;
      const put = await api('PUT', `/api/admin/v1/forms/${searchForm.name}`, {
        key: admin,
        body: searchForm,
      });
      assert.equal(put.status, 201, put.text);

      const create = async (
        name: string,
        as: string,
        docForm: unknown,
        files: any[] = [],
        form = 'searchform',
      ) => {
        const res = await createDoc(
          target.baseUrl,
          as === bob ? bobKey : admin,
          form,
          { docForm, files },
          {
            runAs: as,
          },
        );
        assert.equal(res.status, 201, res.text);
        ids[name] = res.body._id;
      };
      await create('report', bob, {
        valuesByTags: { subject: 'Quarterly report on the Zanzibar harbour and its cranes' },
        _tags: ['finance'],
      });
      await create('zanzibar', bob, {
        valuesByTags: { subject: 'Zanzibar', lines: [['Zanzibar', 'Zanzibar ferry']] },
        _tags: ['travel'],
      });
      await create(
        'tagged',
        bob,
        { valuesByTags: { subject: 'Crème brûlée recipe' }, _tags: ['kumquat-project'] },
        [{ name: 'Mangosteen-offer.txt', content: 'plain text', type: 'text/plain' }],
      );
      await create('alices', alice, { valuesByTags: { subject: 'Zanzibar secret plans' } });
      await create(
        'scan',
        bob,
        {},
        [{ name: 'scan.png', content: await drawPageEncoded(SCANNED_INVOICE, 'png'), type: 'image/png' }],
        'invoice',
      );
    });
    after(() => target?.stop());

    it('finds a value, a tag and an attachment name; case, accents and a word cut short are ignored', async () => {
      const found = await settled('mydocs?q=zanzibar', 2);
      assert.deepEqual(new Set(listed(found)), new Set([ids.report, ids.zanzibar]));
      assert.deepEqual(listed(await settled('mydocs?q=KUMQUAT', 1)), [ids.tagged]);
      assert.deepEqual(listed(await settled('mydocs?q=mangosteen', 1)), [ids.tagged]);
      assert.deepEqual(listed(await settled('mydocs?q=creme%20BRULEE', 1)), [ids.tagged]);
      assert.deepEqual(
        new Set(listed(await settled('mydocs?q=zanzi', 2))),
        new Set([ids.report, ids.zanzibar]),
      );
      // Every word is required.
      assert.deepEqual(listed(await settled('mydocs?q=zanzibar%20cranes', 1)), [ids.report]);
      assert.equal((await settled('mydocs?q=zanzibar%20kumquat', 0)).body.length, 0);
    });

    it('finds the recognised text of an attachment', async () => {
      const recognized = await eventually(
        () => api('GET', `/api/v2/docForm/${ids.scan}`, { key: admin }),
        (r) => r.body.recoStatus !== 'pending',
        RECOGNITION_WAIT_MS,
      );
      assert.equal(recognized.body.recoStatus, 'done', JSON.stringify(recognized.body));
      // No value holds "Quokka": the OCR text does.
      assert.ok(!JSON.stringify(recognized.body.valuesByTags).includes('Quokka'));
      const res = await settled('mydocs?q=quokka%20lagoon', 1);
      assert.deepEqual(listed(res), [ids.scan]);
    });

    it('another user\u2019s document is not found by a non-admin; the admin finds it in all', async () => {
      const bobs = await settled('all?q=zanzibar', 2);
      assert.ok(!listed(bobs).includes(ids.alices));
      const admins = await settled('all?q=zanzibar', 3, 'admin');
      assert.ok(listed(admins).includes(ids.alices));
      assert.equal((await list('all?q=secret')).headers.get('svc-total-count'), '0');
      assert.deepEqual(listed(await settled('all?q=secret', 1, 'admin')), [ids.alices]);
    });

    it('combines with the view\u2019s filters', async () => {
      assert.deepEqual(listed(await settled('mydocs?q=zanzibar&tags=finance', 1)), [ids.report]);
      assert.deepEqual(listed(await settled('all?q=zanzibar&author=' + alice, 1, 'admin')), [ids.alices]);
      assert.equal((await settled('mydocs?q=zanzibar&form=invoice', 0)).body.length, 0);
      assert.equal((await settled('mydocs?q=quokka&form=searchform', 0)).body.length, 0);
    });

    it('ranks the better match first; pages and svc-total-count count every match', async () => {
      // "Zanzibar" three times in a short document beats once in a long one.
      const best = await settled('mydocs?q=zanzibar', 2);
      assert.deepEqual(listed(best), [ids.zanzibar, ids.report]);
      const second = await list('mydocs?q=zanzibar&pageSize=1&first=1');
      assert.equal(second.headers.get('svc-total-count'), '2');
      assert.equal(second.headers.get('svc-total-count-relation'), 'eq');
      assert.deepEqual(listed(second), [ids.report]);
    });

    it('a word of many documents: listed newest first, the view\u2019s rules kept, counted up to the bound (gte)', async () => {
      const wombats: string[] = [];
      for (let i = 0; i <= COMMON_DOCS; i++) {
        const res = await createDoc(
          target.baseUrl,
          bobKey,
          'searchform',
          { docForm: { valuesByTags: { subject: `Wombat census ${i}` } } },
          { runAs: bob },
        );
        assert.equal(res.status, 201, res.text);
        wombats.unshift(res.body._id); // newest first
      }
      const alices = await createDoc(
        target.baseUrl,
        admin,
        'searchform',
        { docForm: { valuesByTags: { subject: 'Wombat burrow' } } },
        { runAs: alice },
      );
      assert.equal(alices.status, 201, alices.text);
      // Bob: his documents only (not alice's), newest first; more than the bound: "at least".
      const bobs = await eventually(
        () => list('all?q=wombat&pageSize=100'),
        (r) => r.body.length === wombats.length,
      );
      assert.deepEqual(listed(bobs), wombats);
      assert.equal(bobs.headers.get('svc-total-count'), String(COMMON_DOCS));
      assert.equal(bobs.headers.get('svc-total-count-relation'), 'gte');
      const page = await list(`all?q=wombat&pageSize=2&first=${COMMON_DOCS - 1}`);
      assert.deepEqual(listed(page), wombats.slice(COMMON_DOCS - 1));
      // The admin: alice's too, first (the newest).
      const admins = await eventually(
        () => list('all?q=WOMBAT&pageSize=100', 'admin'),
        (r) => r.body.length === wombats.length + 1,
      );
      assert.deepEqual(listed(admins), [alices.body._id, ...wombats]);
      assert.equal(admins.headers.get('svc-total-count-relation'), 'gte');
      // Narrowed below the bound by another word: exact again.
      const one = await list('all?q=wombat%20census%201', 'admin');
      assert.deepEqual(listed(one), [wombats[COMMON_DOCS - 1]]);
      assert.equal(one.headers.get('svc-total-count'), '1');
      assert.equal(one.headers.get('svc-total-count-relation'), 'eq');
    });

    it('FTS5 syntax in q is only characters between words; a q without a word is 400', async () => {
      for (const q of [
        '"zanzibar',
        'zanzibar*',
        '-zanzibar',
        'subject:zanzibar',
        '(zanzibar)',
        '^zanzibar"',
      ]) {
        const res = await list(`mydocs?q=${encodeURIComponent(q)}`);
        assert.equal(res.status, 200, `${q}: ${res.text}`);
        const expected = q.startsWith('subject') ? 0 : 2; // "subject" is a word too, and no document holds it
        assert.equal(res.headers.get('svc-total-count'), String(expected), q);
      }
      for (const q of ['NEAR(zanzibar cranes)', 'zanzibar OR kumquat', 'zanzibar AND NOT cranes']) {
        const res = await list(`mydocs?q=${encodeURIComponent(q)}`);
        assert.equal(res.status, 200, `${q}: ${res.text}`);
        assert.equal(res.headers.get('svc-total-count'), '0', `${q}: NEAR, OR, AND and NOT are words`);
      }
      for (const q of ['', '"', '*:-()', 'x'.repeat(201)]) {
        const res = await list(`mydocs?q=${encodeURIComponent(q)}`);
        assert.equal(res.status, 400, `${JSON.stringify(q)}: ${res.text}`);
        assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
      }
    });
  });
}
