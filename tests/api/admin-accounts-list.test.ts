/**
 * GET /api/admin/v1/accounts: every account oldest first, paged with `svc-total-count`, filtered by
 * kind and active flag; each as GET by id shows it (an erased one as erased), in every mode. The
 * list identity keeps for it holds no personal data.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ADMIN_ACCOUNT_ID } from '@docflow/contracts';
import { type Api, apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';

const LIST = '/api/admin/v1/accounts';

interface Listed {
  _id_sys: string;
  kind: string;
  email: string;
  name_first: string;
  active: boolean;
  roles: string[];
}

for (const factory of targets()) {
  describe(`listing accounts [${factory.name}]`, { skip: factory.skip, timeout: 180_000 }, () => {
    let target: Target;
    let api: Api;
    let admin: string;
    const tag = randomUUID().slice(0, 8);
    const created: { id: string; email: string; kind: string; apiKey?: string }[] = [];

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      admin = target.adminKey;
      // Three persons and two service accounts; the last person is deactivated.
      for (const [i, kind] of ['person', 'service', 'person', 'service', 'person'].entries()) {
        const email = `list-${i}.${tag}@accounts.example`;
        const res = await api('POST', LIST, {
          key: admin,
          body: { kind, email, name_first: `First${i}`, name_last: 'Listed', roles: [] },
        });
        assert.equal(res.status, 201, res.text);
        created.push({ id: res.body._id_sys, email, kind, apiKey: res.body.apiKey });
      }
      const off = await api('PATCH', `${LIST}/${created[4]!.id}`, { key: admin, body: { active: false } });
      assert.equal(off.status, 200, off.text);
    });
    after(() => target?.stop());

    async function list(query: string) {
      const res = await api('GET', `${LIST}${query}`, { key: admin });
      assert.equal(res.status, 200, res.text);
      return { total: Number(res.headers.get('svc-total-count')), items: res.body as Listed[] };
    }

    it('lists every account oldest first, the bootstrap admin first, each as GET by id shows it', async () => {
      const { total, items } = await list('?pageSize=100');
      assert.equal(total, 6);
      assert.deepEqual(
        items.map((a) => a._id_sys),
        [ADMIN_ACCOUNT_ID, ...created.map((a) => a.id)],
      );
      for (const item of items) {
        const one = await api('GET', `${LIST}/${item._id_sys}`, { key: admin });
        assert.deepEqual(item, one.body);
      }
      assert.equal(items[1]!.email, created[0]!.email);
      assert.equal(items[5]!.active, false);
    });

    it('pages with first and pageSize; svc-total-count counts before paging', async () => {
      const page = await list('?first=2&pageSize=3');
      assert.equal(page.total, 6);
      assert.deepEqual(
        page.items.map((a) => a._id_sys),
        created.slice(1, 4).map((a) => a.id),
      );
      const past = await list('?first=6&pageSize=3');
      assert.deepEqual(past, { total: 6, items: [] });
      const byDefault = await list('');
      assert.equal(byDefault.items.length, 6);
    });

    it('filters by kind and by active flag', async () => {
      const services = await list('?kind=service&pageSize=100');
      assert.deepEqual(
        services.items.map((a) => a._id_sys),
        [ADMIN_ACCOUNT_ID, created[1]!.id, created[3]!.id],
      );
      assert.equal(services.total, 3);
      const inactivePersons = await list('?kind=person&active=false');
      assert.deepEqual(inactivePersons.total, 1);
      assert.deepEqual(
        inactivePersons.items.map((a) => a._id_sys),
        [created[4]!.id],
      );
      const active = await list('?active=true&pageSize=100');
      assert.equal(active.total, 5);
      assert.ok(active.items.every((a) => a.active));
    });

    it('a list right after a create includes it', async () => {
      const res = await api('POST', LIST, {
        key: admin,
        body: { kind: 'person', email: `fresh.${tag}@accounts.example`, name_first: 'F', name_last: 'Resh' },
      });
      assert.equal(res.status, 201, res.text);
      const { total, items } = await list('?first=6&pageSize=10');
      assert.equal(total, 7);
      assert.deepEqual(
        items.map((a) => a._id_sys),
        [res.body._id_sys],
      );
    });

    it('400 problem+json for bad paging or filter parameters', async () => {
      for (const query of [
        '?pageSize=0',
        '?pageSize=101',
        '?first=-1',
        '?first=x',
        '?kind=robot',
        '?active=yes',
      ]) {
        const res = await api('GET', `${LIST}${query}`, { key: admin });
        assert.equal(res.status, 400, `${query}: ${res.text}`);
        assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
        assert.equal(res.body.status, 400);
      }
    });

    it('403 without the role svcAdminSysRW, 401 without a key', async () => {
      const noRole = created[1]!.apiKey!;
      const res = await api('GET', LIST, { key: noRole });
      assert.equal(res.status, 403, res.text);
      assert.equal((await api('GET', LIST, {})).status, 401);
    });

    it('an erased account is listed as erased; its e-mail is nowhere in identity local.db', async () => {
      const erased = created[2]!;
      const res = await api('POST', `${LIST}/${erased.id}/erase`, { key: admin });
      assert.equal(res.status, 200, res.text);
      const { items } = await list('?pageSize=100');
      const listed = items.find((a) => a._id_sys === erased.id);
      assert.ok(listed);
      assert.equal(listed.email, '[erased]');
      assert.equal(listed.name_first, '[erased]');
      assert.equal(listed.active, false);
      const db = join(target.dataDir, 'identity', 'local.db');
      assert.ok(existsSync(db), db);
      const text = [db, `${db}-wal`]
        .filter(existsSync)
        .map((file) => readFileSync(file).toString('latin1'))
        .join('');
      assert.ok(text.includes(erased.id), "the list holds the account's id");
      assert.ok(!text.includes(erased.email));
      assert.ok(!text.includes('First2'));
    });
  });
}
