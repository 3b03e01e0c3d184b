/**
 * GET /api/admin/v1/accounts?email=…: the account holding exactly that address (case ignored), found
 * through identity's keyed-hash e-mail claims, not a clear-text index; an erased person is not found
 * by their old address (crypto-shredding holds), and whoever takes the address over is. `order=newest`
 * lists the newest account first.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type Api, apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';

const LIST = '/api/admin/v1/accounts';

for (const factory of targets()) {
  describe(`looking accounts up by e-mail [${factory.name}]`, {
    skip: factory.skip,
    timeout: 180_000,
  }, () => {
    let target: Target;
    let api: Api;
    let admin: string;
    const tag = randomUUID().slice(0, 8);
    const address = (name: string) => `${name}.${tag}@lookup.example`;

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      admin = target.adminKey;
    });
    after(() => target?.stop());

    async function create(email: string, kind = 'person'): Promise<string> {
      const res = await api('POST', LIST, {
        key: admin,
        body: { kind, email, name_first: 'Looked', name_last: 'Up', roles: [] },
      });
      assert.equal(res.status, 201, res.text);
      return res.body._id_sys;
    }

    async function list(query: string) {
      const res = await api('GET', `${LIST}${query}`, { key: admin });
      assert.equal(res.status, 200, res.text);
      return {
        total: Number(res.headers.get('svc-total-count')),
        ids: (res.body as { _id_sys: string }[]).map((a) => a._id_sys),
      };
    }

    it('finds the one account holding the exact address, case ignored, and nothing for a near one', async () => {
      const fay = await create(address('fay'));
      await create(address('fay-other'));
      assert.deepEqual(await list(`?email=${encodeURIComponent(address('FAY'))}`), { total: 1, ids: [fay] });
      assert.deepEqual(await list(`?email=${encodeURIComponent(address('fa'))}`), { total: 0, ids: [] });
      assert.deepEqual(await list(`?email=${encodeURIComponent(address('fay'))}&kind=service`), {
        total: 0,
        ids: [],
      });
    });

    it('an erased person is not found by the old address; the next holder of the address is', async () => {
      const gil = await create(address('gil'));
      assert.deepEqual((await list(`?email=${encodeURIComponent(address('gil'))}`)).ids, [gil]);
      const erased = await api('POST', `${LIST}/${gil}/erase`, { key: admin });
      assert.equal(erased.status, 200, erased.text);
      assert.deepEqual(await list(`?email=${encodeURIComponent(address('gil'))}`), { total: 0, ids: [] });
      const next = await create(address('gil'));
      assert.deepEqual(await list(`?email=${encodeURIComponent(address('gil'))}`), { total: 1, ids: [next] });
    });

    it('a malformed address is 400', async () => {
      const res = await api('GET', `${LIST}?email=not-an-address`, { key: admin });
      assert.equal(res.status, 400, res.text);
    });

    it('order=newest lists the newest account first', async () => {
      const newest = await create(address('newest'), 'service');
      const { ids } = await list('?order=newest&pageSize=2');
      assert.equal(ids[0], newest);
      const oldest = await list('?pageSize=100');
      assert.equal(oldest.ids.at(-1), newest, 'oldest first stays the default');
    });
  });
}
