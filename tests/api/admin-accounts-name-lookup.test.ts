/**
 * GET /api/admin/v1/accounts?name=…: people picked by name (issue 33). The accounts a word of whose
 * name starts with the prefix (case and accents ignored), newest first, matched in memory against the
 * decrypted names (no index holds a name); an erased person is found by no part of the old name, and
 * only administrators may look.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type Api, apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';

const LIST = '/api/admin/v1/accounts';

for (const factory of targets()) {
  describe(`looking accounts up by name [${factory.name}]`, { skip: factory.skip, timeout: 180_000 }, () => {
    let target: Target;
    let api: Api;
    let admin: string;
    // A last name no other test gives, so that other accounts of a shared instance never match.
    const family = `Zq${randomUUID()
      .replace(/[^a-f]/g, '')
      .slice(0, 6)}`;

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      admin = target.adminKey;
    });
    after(() => target?.stop());

    async function create(name_first: string, kind = 'person', key = admin) {
      const res = await api('POST', LIST, {
        key,
        body: {
          kind,
          email: `${randomUUID().slice(0, 8)}@names.example`,
          name_first,
          name_last: family,
          roles: [],
        },
      });
      assert.equal(res.status, 201, res.text);
      return res.body as { _id_sys: string; apiKey?: string };
    }

    async function found(query: string) {
      const res = await api('GET', `${LIST}?${query}`, { key: admin });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('svc-total-count-relation'), 'eq');
      return {
        total: Number(res.headers.get('svc-total-count')),
        names: (res.body as { name_first: string }[]).map((a) => a.name_first),
      };
    }

    it('finds by the start of a first or last name, case and accents ignored, newest first', async () => {
      await create('Élodie');
      await create('Eliot');
      await create('Bruno');
      const byFamily = encodeURIComponent(family.toLowerCase());
      assert.deepEqual(await found(`name=${byFamily}`), { total: 3, names: ['Bruno', 'Eliot', 'Élodie'] });
      assert.deepEqual((await found(`name=${byFamily}&pageSize=2&first=1`)).names, ['Eliot', 'Élodie']);
      assert.deepEqual(
        (await found(`name=el&kind=person`)).names.filter((n) => /^[EÉ]l/.test(n)),
        ['Eliot', 'Élodie'],
      );
      assert.deepEqual(await found(`name=${encodeURIComponent(`elod ${family}`)}`), { total: 0, names: [] });
      assert.deepEqual(await found(`name=${encodeURIComponent(`élodie ${family}`)}`), {
        total: 1,
        names: ['Élodie'],
      });
    });

    it('an erased person is found by no part of the old name', async () => {
      const gustave = await create('Gustave');
      assert.equal((await found(`name=gustave`)).total >= 1, true);
      const erased = await api('POST', `${LIST}/${gustave._id_sys}/erase`, { key: admin });
      assert.equal(erased.status, 200, erased.text);
      const after = await api('GET', `${LIST}?name=${encodeURIComponent(family)}`, { key: admin });
      const ids = (after.body as { _id_sys: string }[]).map((a) => a._id_sys);
      assert.equal(ids.includes(gustave._id_sys), false);
      assert.equal((await found('name=gustave')).names.includes('Gustave'), false);
    });

    it('e-mail and name together are 400; a person without an administrator role is 403', async () => {
      const both = await api('GET', `${LIST}?name=a&email=a@names.example`, { key: admin });
      assert.equal(both.status, 400, both.text);
      const service = await create('Portal', 'service');
      const refused = await api('GET', `${LIST}?name=${family}`, { key: service.apiKey });
      assert.equal(refused.status, 403, refused.text);
    });
  });
}
