/**
 * Bounds on every list query parameter (issue 29, finding 7): `tags` with 501 values made view `all`
 * answer 500 (SQLite: too many terms in a compound SELECT), `inbox` from 500. Each list parameter takes
 * at most MAX_LIST_VALUES values: one more is a 400 problem naming the parameter; the bound itself, in
 * every list at once (the listing's worst SQL), is 200 in every view.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_LIST_VALUES, VIEW_IDS } from '@docflow/contracts';
import { createDoc } from '../support/documents';
import { type Api, type ApiResponse, apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';

function assertBadQuery(res: ApiResponse, parameter: string) {
  assert.equal(res.status, 400, res.text);
  assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
  assert.ok(
    (res.body.errors as { pointer?: string }[]).some((e) => e.pointer === `query.${parameter}`),
    `names query.${parameter}: ${res.text}`,
  );
}

/** `n` distinct values made by `make`, comma-separated. */
const list = (n: number, make: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => make(i)).join(',');
const LISTS: Record<'form' | 'author' | 'tags', (i: number) => string> = {
  form: (i) => `form${i}`,
  author: (i) => `usr-00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  tags: (i) => `tag${i}`,
};

for (const factory of targets()) {
  describe(`list query parameters are bounded [${factory.name}]`, {
    skip: factory.skip,
    timeout: 180_000,
  }, () => {
    let target: Target;
    let api: Api;
    /** A service account holding no role, and the bootstrap admin (svcAdminDocsRW: `all` unrestricted). */
    let callers: { name: string; key: string }[];
    let docId: string;

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      const svc = await api('POST', '/api/admin/v1/accounts', {
        key: target.adminKey,
        body: { kind: 'service', email: 'lists@example.com', name_first: 'L', name_last: 'S' },
      });
      assert.equal(svc.status, 201, svc.text);
      callers = [
        { name: 'role-less', key: svc.body.apiKey },
        { name: 'admin', key: target.adminKey },
      ];
      const doc = await createDoc(target.baseUrl, svc.body.apiKey, 'memo', { docForm: { _tags: ['tag0'] } });
      assert.equal(doc.status, 201, doc.text);
      docId = doc.body._id;
    });
    after(() => target?.stop());

    for (const view of VIEW_IDS)
      it(`view ${view}: ${MAX_LIST_VALUES + 1} values of form, author or tags are 400, 501 tags too (was 500)`, async () => {
        for (const { key } of callers) {
          for (const [parameter, make] of Object.entries(LISTS)) {
            const over = `${parameter}=${list(MAX_LIST_VALUES + 1, make)}`;
            assertBadQuery(await api('GET', `/api/v2/docForm/view/${view}?${over}`, { key }), parameter);
          }
          assertBadQuery(
            await api('GET', `/api/v2/docForm/view/${view}?tags=${list(501, LISTS.tags)}`, { key }),
            'tags',
          );
        }
      });

    for (const view of VIEW_IDS)
      it(`view ${view}: ${MAX_LIST_VALUES} values in form, author and tags at once are 200`, async () => {
        const query = Object.entries(LISTS)
          .map(([parameter, make]) => `${parameter}=${list(MAX_LIST_VALUES, make)}`)
          .join('&');
        for (const { name, key } of callers) {
          const res = await api('GET', `/api/v2/docForm/view/${view}?pageSize=100&${query}`, { key });
          assert.equal(res.status, 200, `${name}: ${res.text}`);
          assert.deepEqual(res.body, [], 'no document is by those authors');
        }
        // Each list alone at the bound, where the document matches: it is listed.
        for (const { key } of callers) {
          const tags = await api('GET', `/api/v2/docForm/view/${view}?tags=${list(1, LISTS.tags)}`, { key });
          assert.equal(tags.status, 200, tags.text);
          const forms = `memo,${list(MAX_LIST_VALUES - 1, LISTS.form)}`;
          const res = await api('GET', `/api/v2/docForm/view/${view}?form=${forms}`, { key });
          assert.equal(res.status, 200, res.text);
          assert.equal(res.body.length, tags.body.length, 'the same documents as by its tag');
        }
      });

    it(`GET a document: ${MAX_LIST_VALUES + 1} values of fields or embed are 400, ${MAX_LIST_VALUES} are 200`, async () => {
      const { key } = callers[0]!;
      const fields = (n: number) => `fields=_meta,${list(n - 1, (i) => `f${i}`)}`;
      const embed = (n: number) => `embed=${list(n, () => 'docResponse')}`;
      assertBadQuery(
        await api('GET', `/api/v2/docForm/${docId}?${fields(MAX_LIST_VALUES + 1)}`, { key }),
        'fields',
      );
      assertBadQuery(
        await api('GET', `/api/v2/docForm/${docId}?${embed(MAX_LIST_VALUES + 1)}`, { key }),
        'embed',
      );
      const kept = await api('GET', `/api/v2/docForm/${docId}?${fields(MAX_LIST_VALUES)}`, { key });
      assert.equal(kept.status, 200, kept.text);
      assert.ok(kept.body._meta, 'the named field is kept');
      const embedded = await api('GET', `/api/v2/docForm/${docId}?${embed(MAX_LIST_VALUES)}`, { key });
      assert.equal(embedded.status, 200, embedded.text);
      assert.ok('docResponse' in embedded.body);
    });

    it(`create: idpLangs of ${MAX_LIST_VALUES + 1} languages is 400, of ${MAX_LIST_VALUES} is 201`, async () => {
      const create = (n: number) =>
        createDoc(
          target.baseUrl,
          callers[0]!.key,
          'memo',
          { docForm: {} },
          // `+` in a query is a space: sent encoded.
          { query: `?idpLangs=${encodeURIComponent(list(n, () => 'eng').replaceAll(',', '+'))}` },
        );
      assertBadQuery(await create(MAX_LIST_VALUES + 1), 'idpLangs');
      const res = await create(MAX_LIST_VALUES);
      assert.equal(res.status, 201, res.text);
    });
  });
}
