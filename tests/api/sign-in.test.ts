/**
 * Password sign-in and sessions over real HTTP through the gateway, in both modes (distributed: two
 * gateways, a session used and ended through either).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { type Api, type ApiResponse, apiClient } from '../support/http';
import {
  createPersonWithPassword,
  SESSION_COOKIE,
  sessionCookieOf,
  signIn,
  untilStatus,
  withCookie,
} from '../support/sign-in';
import { type Target, targets } from '../support/targets';

const PASSWORD = 'Sign-In-Password-Not-Anywhere-7f3a';
const OTHER_PASSWORD = 'Another-Password-Nowhere-91c2';

function assertProblem(res: ApiResponse, status: number) {
  assert.equal(res.status, status, res.text);
  assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
}

/** The problem without the per-request member. */
const sameness = (res: ApiResponse) => {
  const { instance: _instance, ...rest } = res.body;
  return { status: res.status, body: rest, challenge: res.headers.get('www-authenticate') };
};

for (const factory of targets({ gatewayInstances: 2 })) {
  describe(`password sign-in and sessions [${factory.name}]`, {
    skip: factory.skip,
    timeout: 300_000,
  }, () => {
    let target: Target;
    let api: Api;
    let admin: string;
    const tokens: string[] = [];
    const ids: Record<string, string> = {};

    async function person(name: string, roles: string[] = []) {
      ids[name] = await createPersonWithPassword(api, admin, name, PASSWORD, roles);
      return ids[name];
    }

    /** Signs `name` in at `baseUrl` and remembers the token, for the scan for secrets. */
    async function session(name: string, baseUrl = target.baseUrl) {
      const { res, cookie } = await signIn(baseUrl, `${name}@example.com`, PASSWORD);
      tokens.push(cookie.slice(`${SESSION_COOKIE}=`.length));
      return { res, cookie, api: withCookie(baseUrl, cookie) };
    }

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      admin = target.adminKey;
      await person('alice');
      await person('sysop', ['svcAdminSysRW']);
      await person('auditor', ['svcAuditR']);
      await person('dora');
      await person('erin');
      await person('frank');
      await person('gina');
    });
    after(() => target?.stop());

    it('signs a person in with the right password: the person, and an HttpOnly SameSite cookie', async () => {
      const { res } = await session('alice');
      assert.deepEqual(res.body, {
        _id_sys: ids.alice,
        kind: 'person',
        displayName: 'alice Tester',
        email: 'alice@example.com',
        roles: [],
      });
      const set = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
      assert.match(set, /; HttpOnly/i);
      assert.match(set, /; SameSite=Lax/i);
      assert.match(set, /; Path=\//i);
      assert.doesNotMatch(set, /; Secure/i, 'not Secure over plain HTTP');
      assert.equal(res.headers.get('cache-control'), 'no-store');
    });

    it('sets a Secure cookie when the sign-in came over HTTPS (through a proxy that ends TLS)', async () => {
      const { res, cookie } = await signIn(target.baseUrl, 'alice@example.com', PASSWORD, {
        'x-forwarded-proto': 'https',
      });
      tokens.push(cookie.slice(`${SESSION_COOKIE}=`.length));
      assert.match(res.headers.getSetCookie().join('\n'), /; Secure/i);
    });

    it('authenticates the API as the person, with the person\u2019s own roles', async () => {
      const alice = await session('alice');
      assert.equal((await alice.api('GET', '/api/v2/docForm/view/mydocs')).status, 200);
      assertProblem(await alice.api('GET', '/api/admin/v1/accounts'), 403);
      const sysop = await session('sysop');
      const accounts = await sysop.api('GET', '/api/admin/v1/accounts');
      assert.equal(accounts.status, 200, accounts.text);
      const sessions = await alice.api('GET', '/api/auth/v1/sessions');
      assert.equal(sessions.status, 200, sessions.text);
      assert.ok(sessions.body.length >= 1);
      assert.ok(sessions.body.some((s: { current: boolean }) => s.current));
    });

    it('writes as the person: a document created with the cookie is the person\u2019s', async () => {
      const form = { name: 'signinform', title: 'Sign-in form', formsystype: 1, tags: { subject: 'string' } };
      const put = await api('PUT', '/api/admin/v1/forms/signinform', { key: admin, body: form });
      assert.ok([200, 201].includes(put.status), put.text);
      const alice = await session('alice');
      const body = new FormData();
      body.append('docForm', JSON.stringify({ valuesByTags: { subject: 'by session' } }));
      const res = await fetch(`${target.baseUrl}/api/v2/docForm/form/signinform`, {
        method: 'POST',
        headers: { cookie: alice.cookie },
        body,
      });
      const created = (await res.json()) as { _id: string; author: string };
      assert.equal(res.status, 201, JSON.stringify(created));
      assert.equal(created.author, ids.alice);
      const read = await alice.api('GET', `/api/v2/docForm/${created._id}`);
      assert.equal(read.status, 200, read.text);
      // Another person's session does not read it.
      const frank = await session('frank');
      assertProblem(await frank.api('GET', `/api/v2/docForm/${created._id}`), 404);
    });

    it('answers a wrong password and an unknown e-mail alike (401, same body)', async () => {
      const wrong = await api('POST', '/api/auth/v1/login', {
        body: { email: 'alice@example.com', password: OTHER_PASSWORD },
      });
      const unknown = await api('POST', '/api/auth/v1/login', {
        body: { email: 'nobody-here@example.com', password: OTHER_PASSWORD },
      });
      assertProblem(wrong, 401);
      assert.equal(wrong.body.detail, 'wrong e-mail or password');
      assert.deepEqual(sameness(wrong), sameness(unknown));
      assert.equal(sessionCookieOf(wrong), undefined);
      // A person without a password, and an inactive one, are refused alike too.
      const noPassword = await api('POST', '/api/admin/v1/accounts', {
        key: admin,
        body: { kind: 'person', email: 'nopwd@example.com', name_first: 'No', name_last: 'Pwd' },
      });
      assert.equal(noPassword.status, 201);
      const none = await api('POST', '/api/auth/v1/login', {
        body: { email: 'nopwd@example.com', password: OTHER_PASSWORD },
      });
      assert.deepEqual(sameness(none), sameness(unknown));
    });

    it('refuses svc-run-as with a session (400)', async () => {
      const alice = await session('alice');
      const res = await alice.api('GET', '/api/v2/docForm/view/mydocs', { runAs: ids.sysop! });
      assertProblem(res, 400);
      assert.match(res.body.detail, /svc-run-as/);
    });

    it('refuses an unsafe request made with the cookie from another site (CSRF), and lets its own through', async () => {
      const alice = await session('alice');
      const other = await session('alice');
      const otherId = (await other.api('GET', '/api/auth/v1/sessions')).body.find(
        (s: { current: boolean }) => s.current,
      ).id;
      const path = `/api/auth/v1/sessions/${otherId}`;
      assertProblem(await alice.api('DELETE', path, { headers: { 'sec-fetch-site': 'cross-site' } }), 403);
      assertProblem(await alice.api('DELETE', path, { headers: { 'sec-fetch-site': 'same-site' } }), 403);
      assertProblem(await alice.api('DELETE', path, { headers: { origin: 'https://evil.example' } }), 403);
      assertProblem(await alice.api('DELETE', path, { headers: { origin: 'null' } }), 403);
      // Behind a proxy: the host the browser saw is the forwarded one.
      const proxied = { origin: 'https://docflow.example', 'x-forwarded-host': 'docflow.example' };
      const none = `/api/auth/v1/sessions/${'f'.repeat(24)}`;
      assertProblem(await alice.api('DELETE', none, { headers: proxied }), 404);
      assertProblem(
        await alice.api('DELETE', none, { headers: { ...proxied, 'x-forwarded-host': 'evil.example' } }),
        403,
      );
      // The sign-in itself is a cookie-setting POST: refused from another site too.
      const forged = await api('POST', '/api/auth/v1/login', {
        body: { email: 'alice@example.com', password: PASSWORD },
        headers: { 'sec-fetch-site': 'cross-site' },
      });
      assertProblem(forged, 403);
      // A safe request from another site is not refused; the other session still works.
      assert.equal(
        (await alice.api('GET', '/api/auth/v1/sessions', { headers: { 'sec-fetch-site': 'cross-site' } }))
          .status,
        200,
      );
      assert.equal((await other.api('GET', '/api/auth/v1/sessions')).status, 200);
      const own = await alice.api('DELETE', path, {
        headers: { 'sec-fetch-site': 'same-origin', origin: target.baseUrl },
      });
      assert.equal(own.status, 204, own.text);
      assertProblem(await other.api('GET', '/api/auth/v1/sessions'), 401);
    });

    it('logout ends the session and clears the cookie', async () => {
      const alice = await session('alice');
      const res = await alice.api('POST', '/api/auth/v1/logout');
      assert.equal(res.status, 204, res.text);
      assert.match(res.headers.getSetCookie().join('\n'), new RegExp(`${SESSION_COOKIE}=;.*Max-Age=0`, 'i'));
      assertProblem(await alice.api('GET', '/api/v2/docForm/view/mydocs'), 401);
      // Again, and with no cookie at all: signed out all the same.
      assert.equal((await alice.api('POST', '/api/auth/v1/logout')).status, 204);
      assert.equal((await api('POST', '/api/auth/v1/logout')).status, 204);
    });

    it('lists a person\u2019s sessions, which the person and an admin can end', async () => {
      const first = await session('dora');
      const second = await session('dora');
      const listed = await first.api('GET', '/api/auth/v1/sessions');
      assert.equal(listed.status, 200, listed.text);
      assert.equal(listed.body.length, 2);
      const [current, other] = [
        listed.body.find((s: { current: boolean }) => s.current),
        listed.body.find((s: { current: boolean }) => !s.current),
      ];
      assert.ok(current && other);
      assert.equal(typeof current.from, 'string');
      // Another person's session is not found by the person.
      const alice = await session('alice');
      assertProblem(await alice.api('DELETE', `/api/auth/v1/sessions/${other.id}`), 404);
      assert.equal((await first.api('DELETE', `/api/auth/v1/sessions/${other.id}`)).status, 204);
      assertProblem(await second.api('GET', '/api/auth/v1/sessions'), 401);
      // An admin lists and ends the person's sessions.
      const byAdmin = await api('GET', `/api/admin/v1/accounts/${ids.dora}/sessions`, { key: admin });
      assert.equal(byAdmin.status, 200, byAdmin.text);
      assert.deepEqual(
        byAdmin.body.map((s: { id: string }) => s.id),
        [current.id],
      );
      assertProblem(await alice.api('GET', `/api/admin/v1/accounts/${ids.dora}/sessions`), 403);
      const ended = await api('DELETE', `/api/admin/v1/accounts/${ids.dora}/sessions/${current.id}`, {
        key: admin,
      });
      assert.equal(ended.status, 204, ended.text);
      assertProblem(await first.api('GET', '/api/auth/v1/sessions'), 401);
    });

    it('an erased person\u2019s live session gets 401 on its next request', async () => {
      const gina = await session('gina');
      assert.equal((await gina.api('GET', '/api/v2/docForm/view/mydocs')).status, 200);
      const erased = await api('POST', `/api/admin/v1/accounts/${ids.gina}/erase`, { key: admin });
      assert.equal(erased.status, 200, erased.text);
      assertProblem(await gina.api('GET', '/api/v2/docForm/view/mydocs'), 401);
      assertProblem(
        await api('POST', '/api/auth/v1/login', { body: { email: 'gina@example.com', password: PASSWORD } }),
        401,
      );
    });

    it('a deactivated person\u2019s live session gets 401 on its next request, and stays ended', async () => {
      const erin = await session('erin');
      assert.equal((await erin.api('GET', '/api/v2/docForm/view/mydocs')).status, 200);
      const off = await api('PATCH', `/api/admin/v1/accounts/${ids.erin}`, {
        key: admin,
        body: { active: false },
      });
      assert.equal(off.status, 200, off.text);
      assertProblem(await erin.api('GET', '/api/v2/docForm/view/mydocs'), 401);
      assertProblem(
        await api('POST', '/api/auth/v1/login', { body: { email: 'erin@example.com', password: PASSWORD } }),
        401,
      );
      const on = await api('PATCH', `/api/admin/v1/accounts/${ids.erin}`, {
        key: admin,
        body: { active: true },
      });
      assert.equal(on.status, 200, on.text);
      assertProblem(await erin.api('GET', '/api/v2/docForm/view/mydocs'), 401);
      const again = await session('erin');
      assert.equal((await again.api('GET', '/api/v2/docForm/view/mydocs')).status, 200);
    });

    it('lists sign-ins, sign-outs and failures for an auditor', async () => {
      const auditor = await session('auditor');
      const res = await untilStatus(async () => {
        const page = await auditor.api('GET', `/api/auth/v1/sign-ins?account=${ids.alice}&limit=1000`);
        const types = new Set(page.body.map((r: { type: string }) => r.type));
        return { ...page, status: types.has('SignedOut') && types.has('SignInFailed') ? page.status : 0 };
      }, 200);
      assert.equal(res.status, 200, res.text);
      for (const record of res.body) {
        assert.equal(record.account, ids.alice);
        assert.equal(typeof record.from, 'string');
        assert.ok(record.from.length > 0);
        assert.match(record.time, /Z$/);
      }
      assert.ok(Number(res.headers.get('svc-total-count')) >= res.body.length);
      const alice = await session('alice');
      assertProblem(await alice.api('GET', '/api/auth/v1/sign-ins'), 403);
    });

    it('a session works through every gateway, and its person\u2019s deactivation ends it at each', async (t) => {
      const urls = (target as Target & { gatewayUrls?: string[] }).gatewayUrls ?? [target.baseUrl];
      if (urls.length < 2) return t.skip('one gateway in this mode');
      const person = await session('alice', urls[0]);
      const elsewhere = withCookie(urls[1]!, person.cookie);
      // At once: a gateway the bus has not brought the session to yet asks identity, and waits for it.
      const there = await elsewhere('GET', '/api/auth/v1/sessions');
      assert.equal(there.status, 200, there.text);
      const off = await apiClient(urls[1]!)('PATCH', `/api/admin/v1/accounts/${ids.alice}`, {
        key: admin,
        body: { active: false },
      });
      assert.equal(off.status, 200, off.text);
      assertProblem(await elsewhere('GET', '/api/auth/v1/sessions'), 401);
      assertProblem(await untilStatus(() => person.api('GET', '/api/auth/v1/sessions'), 401), 401);
      const on = await apiClient(urls[1]!)('PATCH', `/api/admin/v1/accounts/${ids.alice}`, {
        key: admin,
        body: { active: true },
      });
      assert.equal(on.status, 200, on.text);
    });

    it('never writes a password or a session token to a log or an event', async () => {
      const haystacks = [target.output()];
      for (const service of ['identity', 'gateway']) {
        for (const suffix of ['', '-wal']) {
          const file = `${target.eventStoreFile(service)}${suffix}`;
          if (existsSync(file)) haystacks.push(readFileSync(file).toString('latin1'));
        }
      }
      assert.ok(haystacks.length > 1, 'an event store file was read');
      assert.ok(tokens.length > 5);
      for (const text of haystacks) {
        assert.ok(!text.includes(PASSWORD), 'the password appears');
        assert.ok(!text.includes(OTHER_PASSWORD), 'a wrong password appears');
        for (const token of tokens) assert.ok(!text.includes(token), 'a session token appears');
      }
    });
  });
}
