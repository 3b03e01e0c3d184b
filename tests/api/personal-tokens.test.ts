/**
 * Personal access tokens over real HTTP through the gateway, in both modes (distributed: two gateways,
 * a token made through one used at once through the other).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createDoc } from '../support/documents';
import { type Api, type ApiResponse, apiClient } from '../support/http';
import { createPersonWithPassword, signIn, untilStatus, withCookie } from '../support/sign-in';
import { type Target, targets } from '../support/targets';

const PASSWORD = 'Token-Test-Password-Nowhere-4d1e';
const FORM = { name: 'tokenform', title: 'Token form', formsystype: 1, tags: { subject: 'string' } };

function assertProblem(res: ApiResponse, status: number) {
  assert.equal(res.status, status, res.text);
  assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
}

for (const factory of targets({ gatewayInstances: 2 })) {
  describe(`personal access tokens [${factory.name}]`, { skip: factory.skip, timeout: 300_000 }, () => {
    let target: Target;
    let api: Api;
    let admin: string;
    const secrets: string[] = [];
    const ids: Record<string, string> = {};

    async function person(name: string, roles: string[] = []) {
      ids[name] = await createPersonWithPassword(api, admin, name, PASSWORD, roles);
      return ids[name];
    }

    /** The signed-in person's cookie client at `baseUrl`. */
    async function session(name: string, baseUrl = target.baseUrl) {
      const { cookie } = await signIn(baseUrl, `${name}@example.com`, PASSWORD);
      return withCookie(baseUrl, cookie);
    }

    /** A new token of `name`, made while signed in; its secret is remembered for the scan. */
    async function token(name: string, body: Record<string, unknown> = { name: 'cli' }, baseUrl?: string) {
      const res = await (await session(name, baseUrl))('POST', '/api/auth/v1/tokens', { body });
      assert.equal(res.status, 201, res.text);
      secrets.push(res.body.token);
      return res.body as { id: string; name: string; created: string; expires: string | null; token: string };
    }

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      admin = target.adminKey;
      for (const name of ['alice', 'bob', 'carol', 'dave', 'erin']) await person(name);
      const put = await api('PUT', `/api/admin/v1/forms/${FORM.name}`, { key: admin, body: FORM });
      assert.ok([200, 201].includes(put.status), put.text);
    });
    after(() => target?.stop());

    it('a signed-in person makes a token, shown once, that authenticates as the person', async () => {
      const made = await token('alice', { name: 'laptop CLI' });
      assert.equal(made.name, 'laptop CLI');
      assert.equal(made.expires, null);
      assert.match(made.id, /^[0-9a-f]{24}$/);
      assert.match(made.token, /^dfk_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
      const me = await api('GET', '/api/v2/me', { key: made.token });
      assert.equal(me.status, 200, me.text);
      assert.equal(me.body._id_sys, ids.alice);
      assert.equal(me.body.kind, 'person');
      assert.equal(me.body.actingThrough, null);
      const created = await createDoc(target.baseUrl, made.token, FORM.name, {
        docForm: { valuesByTags: { subject: 'by token' } },
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.author, ids.alice);
    });

    it('takes an expiry, and refuses one in the past (400)', async () => {
      const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
      const made = await token('alice', { name: 'one day', expiresAt });
      assert.equal(made.expires, expiresAt);
      assert.equal((await api('GET', '/api/v2/me', { key: made.token })).status, 200);
      const alice = await session('alice');
      assertProblem(
        await alice('POST', '/api/auth/v1/tokens', {
          body: { name: 'past', expiresAt: '2020-01-01T00:00:00Z' },
        }),
        400,
      );
      assertProblem(await alice('POST', '/api/auth/v1/tokens', { body: {} }), 400);
    });

    it('lists the person\u2019s tokens without the secret', async () => {
      const made = await token('bob', { name: 'script' });
      for (const list of [
        await api('GET', '/api/auth/v1/tokens', { key: made.token }),
        await (await session('bob'))('GET', '/api/auth/v1/tokens'),
        await api('GET', `/api/admin/v1/accounts/${ids.bob}/tokens`, { key: admin }),
      ]) {
        assert.equal(list.status, 200, list.text);
        assert.deepEqual(list.body, [{ id: made.id, name: 'script', created: made.created, expires: null }]);
        assert.ok(!list.text.includes(made.token.slice(-43)), 'the secret is listed');
      }
      const alice = await api('GET', '/api/auth/v1/tokens', { key: secrets[0] });
      assert.ok(
        !alice.body.some((t: { id: string }) => t.id === made.id),
        'another person\u2019s token is listed',
      );
    });

    it('only a signed-in person makes one: not an API key, a token, nor svc-run-as (403)', async () => {
      const body = { name: 'nope' };
      const made = await token('carol');
      assertProblem(await api('POST', '/api/auth/v1/tokens', { key: made.token, body }), 403);
      assertProblem(await api('POST', '/api/auth/v1/tokens', { key: admin, body }), 403);
      assertProblem(await api('POST', '/api/auth/v1/tokens', { key: admin, runAs: ids.carol, body }), 403);
      assertProblem(await api('GET', '/api/auth/v1/tokens', { key: admin, runAs: ids.carol }), 403);
      assertProblem(await api('POST', '/api/auth/v1/tokens', { body }), 401);
    });

    it('acts with the person\u2019s rights only, and never as svc-run-as', async () => {
      const made = await token('carol');
      assertProblem(await api('GET', '/api/admin/v1/accounts', { key: made.token }), 403);
      assertProblem(await api('GET', `/api/admin/v1/accounts/${ids.carol}/tokens`, { key: made.token }), 403);
      const theirs = await createDoc(target.baseUrl, admin, FORM.name, {
        docForm: { valuesByTags: { subject: 'not carol\u2019s' } },
      });
      assert.equal(theirs.status, 201, theirs.text);
      assertProblem(await api('GET', `/api/v2/docForm/${theirs.body._id}`, { key: made.token }), 404);
      assertProblem(await api('GET', '/api/v2/me', { key: made.token, runAs: ids.alice }), 400);
      assertProblem(await api('GET', '/api/v2/me', { key: made.token, runAs: ids.carol }), 400);
    });

    it('a revoked token gets 401, by the person or by an admin', async () => {
      const own = await token('dave', { name: 'own' });
      const other = await token('dave', { name: 'other' });
      assertProblem(await api('DELETE', `/api/auth/v1/tokens/${other.id}`, { key: secrets[0] }), 404);
      const revoked = await api('DELETE', `/api/auth/v1/tokens/${own.id}`, { key: own.token });
      assert.equal(revoked.status, 204, revoked.text);
      assertProblem(await api('GET', '/api/v2/me', { key: own.token }), 401);
      assert.equal((await api('GET', '/api/v2/me', { key: other.token })).status, 200);
      const byAdmin = await api('DELETE', `/api/admin/v1/accounts/${ids.dave}/tokens/${other.id}`, {
        key: admin,
      });
      assert.equal(byAdmin.status, 204, byAdmin.text);
      assertProblem(await api('GET', '/api/v2/me', { key: other.token }), 401);
      assertProblem(
        await api('DELETE', `/api/auth/v1/tokens/${other.id}`, { key: admin, runAs: ids.dave }),
        403,
      );
      const list = await api('GET', `/api/admin/v1/accounts/${ids.dave}/tokens`, { key: admin });
      assert.deepEqual(list.body, []);
    });

    it('a deactivated person\u2019s token gets 401 at once, and stays ended after reactivation', async () => {
      const made = await token('erin');
      assert.equal((await api('GET', '/api/v2/me', { key: made.token })).status, 200);
      const off = await api('PATCH', `/api/admin/v1/accounts/${ids.erin}`, {
        key: admin,
        body: { active: false },
      });
      assert.equal(off.status, 200, off.text);
      assertProblem(await api('GET', '/api/v2/me', { key: made.token }), 401);
      const on = await api('PATCH', `/api/admin/v1/accounts/${ids.erin}`, {
        key: admin,
        body: { active: true },
      });
      assert.equal(on.status, 200, on.text);
      assertProblem(await api('GET', '/api/v2/me', { key: made.token }), 401);
      assert.deepEqual(
        (await api('GET', `/api/admin/v1/accounts/${ids.erin}/tokens`, { key: admin })).body,
        [],
      );
    });

    it('an erased person\u2019s token gets 401 at once', async () => {
      await person('gina');
      const made = await token('gina');
      assert.equal((await api('GET', '/api/v2/me', { key: made.token })).status, 200);
      const erased = await api('POST', `/api/admin/v1/accounts/${ids.gina}/erase`, { key: admin });
      assert.equal(erased.status, 200, erased.text);
      assertProblem(await api('GET', '/api/v2/me', { key: made.token }), 401);
    });

    it('a token made through one gateway works through another at once', async (t) => {
      const urls = (target as Target & { gatewayUrls?: string[] }).gatewayUrls ?? [target.baseUrl];
      if (urls.length < 2) return t.skip('one gateway in this mode');
      const made = await token('bob', { name: 'elsewhere' }, urls[0]);
      const there = await apiClient(urls[1]!)('GET', '/api/v2/me', { key: made.token });
      assert.equal(there.status, 200, there.text);
      assert.equal(there.body._id_sys, ids.bob);
      // A deactivation through the second gateway ends the token there at once, and at the first soon.
      const off = await apiClient(urls[1]!)('PATCH', `/api/admin/v1/accounts/${ids.bob}`, {
        key: admin,
        body: { active: false },
      });
      assert.equal(off.status, 200, off.text);
      assertProblem(await apiClient(urls[1]!)('GET', '/api/v2/me', { key: made.token }), 401);
      const first = () => apiClient(urls[0]!)('GET', '/api/v2/me', { key: made.token });
      assertProblem(await untilStatus(first, 401), 401);
    });

    it('never writes a token to a log or an event', async () => {
      const haystacks = [target.output()];
      for (const service of ['identity', 'gateway']) {
        for (const suffix of ['', '-wal']) {
          const file = `${target.eventStoreFile(service)}${suffix}`;
          if (existsSync(file)) haystacks.push(readFileSync(file).toString('latin1'));
        }
      }
      assert.ok(haystacks.length > 1, 'an event store file was read');
      assert.ok(secrets.length > 5);
      for (const text of haystacks)
        for (const secret of secrets) assert.ok(!text.includes(secret), 'a token appears');
    });
  });
}
