/**
 * Single sign-on with OpenID Connect against the real Keycloak infra/local starts (realm
 * infra/keycloak/realm-docflow.json): the code flow with PKCE driven by HTTP through Keycloak's own
 * login form, ending in a session `/api/v2/me` accepts; a tampered state, a code issued to another
 * client, an unverified e-mail, a disabled Keycloak user and a deactivated docflow person refused;
 * RP-initiated logout. Without a provider configured, the routes answer 404 and password sign-in works.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../support/documents';
import { type Api, type ApiResponse, apiClient } from '../support/http';
import {
  CookieJar,
  keycloakIssuer,
  keycloakSkipReason,
  realmClient,
  submitKeycloakLogin,
  visit,
} from '../support/keycloak';
import { SESSION_COOKIE, signIn, withCookie } from '../support/sign-in';
import { type Target, targets } from '../support/targets';

const LOGIN = '/api/auth/v1/oidc/login';
const CALLBACK = '/api/auth/v1/oidc/callback';
const LOGIN_COOKIE = `${SESSION_COOKIE}_oidc`;
const END_COOKIE = `${SESSION_COOKIE}_oidc_end`;
const PASSWORD = 'Sso-Suite-Password-Nowhere-5d1e';

const USERS = {
  alice: 'alice-local-pass',
  bob: 'bob-local-pass',
  carol: 'carol-local-pass',
  dave: 'dave-local-pass',
  erin: 'erin-local-pass',
} as const;

function assertProblem(res: ApiResponse | Response, status: number, text = '') {
  assert.equal(res.status, status, text);
  assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
}

/**
 * The realm's docflow client as two providers: `keycloak` signs in only persons docflow knows,
 * `keycloak-join` creates the others, with roles from their Keycloak groups; and `keycloak-wrong-aud`,
 * the realm's client whose ID tokens name another audience. None when Keycloak is not there (the suite
 * is skipped).
 */
function providersEnv(): Record<string, string> {
  const issuer = process.env.KEYCLOAK_ISSUER;
  if (!issuer) return {};
  const { clientId, secret } = realmClient('docflow');
  const client = { issuer, clientId, clientSecret: secret };
  const wrongAud = realmClient('docflow-wrong-aud');
  return {
    DOCFLOW_OIDC_PROVIDERS: JSON.stringify([
      { id: 'keycloak', name: 'Keycloak', ...client },
      {
        id: 'keycloak-join',
        name: 'Keycloak (joining)',
        ...client,
        createPersons: true,
        roleMap: { 'docflow-admins': ['svcAdminSysRW'], 'docflow-auditors': ['svcAuditR'] },
      },
      { id: 'keycloak-wrong-aud', issuer, clientId: wrongAud.clientId, clientSecret: wrongAud.secret },
    ]),
  };
}

for (const factory of targets({ env: providersEnv() })) {
  const skip = factory.skip ?? keycloakSkipReason();
  describe(`single sign-on with Keycloak [${factory.name}]`, { skip, timeout: 300_000 }, () => {
    let target: Target;
    let api: Api;
    const ids: Record<string, string> = {};
    /** Codes, tokens and cookies seen on the way, for the scan of the logs and the event stores. */
    const secrets: string[] = [];

    async function person(name: string) {
      const res = await api('POST', '/api/admin/v1/accounts', {
        key: target.adminKey,
        body: { kind: 'person', email: `${name}@example.com`, name_first: name, name_last: 'Sso', roles: [] },
      });
      assert.equal(res.status, 201, res.text);
      ids[name] = res.body._id_sys as string;
    }

    /** The gateway's login: the browser's jar (with the login cookie) and Keycloak's authorization URL. */
    async function startLogin(returnTo?: string, provider = 'keycloak') {
      const jar = new CookieJar();
      const query = new URLSearchParams({ provider, ...(returnTo ? { returnTo } : {}) });
      const res = await visit(jar, `${target.baseUrl}${LOGIN}?${query}`);
      assert.equal(res.status, 302, await res.text());
      assert.ok(jar.get(LOGIN_COOKIE), 'the login keeps its state in a cookie');
      const authorization = new URL(res.headers.get('location')!);
      assert.ok(authorization.href.startsWith(`${keycloakIssuer()}/protocol/openid-connect/auth?`));
      return { jar, authorization };
    }

    /** Keycloak's redirect back to the callback after `user` signed in there. */
    async function callbackUrl(authorization: URL, user: keyof typeof USERS): Promise<URL> {
      const answer = await submitKeycloakLogin(authorization.href, user, USERS[user]);
      assert.equal(answer.status, 302, `Keycloak signed ${user} in`);
      const back = new URL(answer.headers.get('location')!);
      assert.equal(`${back.origin}${back.pathname}`, `${target.baseUrl}${CALLBACK}`);
      secrets.push(back.searchParams.get('code')!);
      return back;
    }

    before(async () => {
      keycloakIssuer(); // with DOCFLOW_ENGINES_REQUIRED=1 and no Keycloak: fail here, loudly
      target = await factory.start();
      api = apiClient(target.baseUrl);
      for (const name of ['alice', 'bob', 'carol', 'dave']) await person(name);
      const off = await api('PATCH', `/api/admin/v1/accounts/${ids.carol}`, {
        key: target.adminKey,
        body: { active: false },
      });
      assert.equal(off.status, 200, off.text);
    });
    after(() => target?.stop());

    it('lists the configured provider for a sign-in button', async () => {
      const res = await api('GET', '/api/auth/v1/providers');
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, [
        { id: 'keycloak', name: 'Keycloak', loginUrl: `${LOGIN}?provider=keycloak` },
        { id: 'keycloak-join', name: 'Keycloak (joining)', loginUrl: `${LOGIN}?provider=keycloak-join` },
        {
          id: 'keycloak-wrong-aud',
          name: 'keycloak-wrong-aud',
          loginUrl: `${LOGIN}?provider=keycloak-wrong-aud`,
        },
      ]);
    });

    it('redirects to Keycloak with the code flow, PKCE S256, a state and a nonce', async () => {
      const { jar, authorization } = await startLogin();
      const q = authorization.searchParams;
      assert.equal(q.get('response_type'), 'code');
      assert.equal(q.get('client_id'), 'docflow');
      assert.equal(q.get('code_challenge_method'), 'S256');
      assert.match(q.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
      assert.ok((q.get('state') ?? '').length >= 32 && (q.get('nonce') ?? '').length >= 32);
      assert.equal(q.get('redirect_uri'), `${target.baseUrl}${CALLBACK}`);
      // The cookie is sealed: neither the state nor the nonce can be read from it.
      assert.ok(!jar.get(LOGIN_COOKIE)!.includes(q.get('state')!));
    });

    it('refuses a returnTo that would lead the browser off the site (400), before going to Keycloak', async () => {
      for (const returnTo of [
        '//evil.example/',
        '/\\evil.example/',
        '/\t/evil.example/',
        'https://evil.example/',
      ]) {
        const res = await fetch(
          `${target.baseUrl}${LOGIN}?${new URLSearchParams({ provider: 'keycloak', returnTo })}`,
          { redirect: 'manual' },
        );
        assertProblem(res, 400, JSON.stringify(returnTo));
      }
    });

    let aliceJar: CookieJar;

    it('signs alice in through Keycloak’s login form: a session cookie /api/v2/me accepts', async () => {
      const { jar, authorization } = await startLogin('/console/#inbox');
      const back = await callbackUrl(authorization, 'alice');
      const done = await visit(jar, back.href);
      assert.equal(done.status, 302, await done.text());
      assert.equal(done.headers.get('location'), '/console/#inbox');
      const set = done.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
      assert.ok(set, 'the callback sets the session cookie');
      assert.match(set, /HttpOnly/i);
      assert.match(set, /SameSite=Lax/i);
      assert.equal(jar.get(LOGIN_COOKIE), undefined, 'the login state is used once');
      secrets.push(jar.get(SESSION_COOKIE)!, jar.get(END_COOKIE)!);
      const me = await withCookie(target.baseUrl, `${SESSION_COOKIE}=${jar.get(SESSION_COOKIE)}`)(
        'GET',
        '/api/v2/me',
      );
      assert.equal(me.status, 200, me.text);
      assert.equal(me.body._id_sys, ids.alice);
      assert.equal(me.body.email, 'alice@example.com');
      // The session is the one a password sign-in opens: listed among the person's sessions.
      const sessions = await withCookie(target.baseUrl, `${SESSION_COOKIE}=${jar.get(SESSION_COOKIE)}`)(
        'GET',
        '/api/auth/v1/sessions',
      );
      assert.equal(sessions.status, 200, sessions.text);
      assert.equal(sessions.body.length, 1);
      aliceJar = jar;
    });

    it('a replayed callback is refused: the login state went with the first use', async () => {
      const { jar, authorization } = await startLogin();
      const back = await callbackUrl(authorization, 'alice');
      const first = await visit(jar, back.href);
      assert.equal(first.status, 302);
      assert.equal(first.headers.get('location'), '/console', 'without returnTo: the web console');
      const again = await fetch(back.href, { redirect: 'manual', headers: { cookie: `${LOGIN_COOKIE}=x` } });
      assertProblem(again, 401);
    });

    it('refuses a tampered state, and starts no session', async () => {
      const { jar, authorization } = await startLogin();
      const back = await callbackUrl(authorization, 'alice');
      back.searchParams.set('state', `${back.searchParams.get('state')}x`);
      const res = await visit(jar, back.href);
      assertProblem(res, 401, await res.text());
      assert.equal(jar.get(SESSION_COOKIE), undefined);
    });

    it('refuses a code Keycloak issued to another client (the wrong audience)', async () => {
      const { jar, authorization } = await startLogin();
      // The same state, nonce and PKCE challenge, but asked for by the realm's other client.
      const other = new URL(authorization.href);
      other.searchParams.set('client_id', realmClient('other-app').clientId);
      const back = await callbackUrl(other, 'alice');
      const res = await visit(jar, back.href);
      assertProblem(res, 401, await res.text());
      assert.equal(jar.get(SESSION_COOKIE), undefined);
    });

    it('refuses an ID token Keycloak signed for another audience', async () => {
      const { jar, authorization } = await startLogin(undefined, 'keycloak-wrong-aud');
      assert.equal(authorization.searchParams.get('client_id'), 'docflow-wrong-aud');
      const res = await visit(jar, (await callbackUrl(authorization, 'alice')).href);
      assertProblem(res, 401, await res.text());
      assert.equal(jar.get(SESSION_COOKIE), undefined);
      // Refused for the audience (openid-client's check), not for anything else: the gateway's log says
      // which check failed (a process's log reaches the test a moment after its answer).
      const audRefused =
        /"provider":"keycloak-wrong-aud".*unexpected JWT \\"aud\\" \(audience\) claim value.*identity provider answer refused/;
      const output = await eventually(
        async () => target.output(),
        (text) => audRefused.test(text),
      );
      assert.match(output, audRefused);
    });

    it('refuses an e-mail address Keycloak has not verified', async () => {
      const { jar, authorization } = await startLogin();
      const res = await visit(jar, (await callbackUrl(authorization, 'dave')).href);
      assertProblem(res, 401, await res.text());
      assert.equal(jar.get(SESSION_COOKIE), undefined);
    });

    it('a user disabled in Keycloak cannot sign in: Keycloak never sends them back', async () => {
      const { authorization } = await startLogin();
      const answer = await submitKeycloakLogin(authorization.href, 'bob', USERS.bob);
      assert.equal(answer.status, 200, 'Keycloak shows its page again');
      assert.equal(answer.headers.get('location'), null);
      assert.match(await answer.text(), /disabled|Invalid username or password/i);
    });

    it('refuses a person deactivated in docflow though Keycloak vouches for them', async () => {
      const { jar, authorization } = await startLogin();
      const res = await visit(jar, (await callbackUrl(authorization, 'carol')).href);
      assertProblem(res, 401, await res.text());
      assert.equal(jar.get(SESSION_COOKIE), undefined);
      // The failure is a sign-in record an auditor lists, naming carol (the list may lag a moment).
      const failedForCarol = (res: ApiResponse) =>
        res.status === 200 &&
        res.body.some(
          (r: { type: string; account: string | null }) =>
            r.type === 'SignInFailed' && r.account === ids.carol,
        );
      let records = await api('GET', '/api/auth/v1/sign-ins', { key: target.adminKey });
      for (let i = 0; i < 100 && !failedForCarol(records); i++) {
        await new Promise((r) => setTimeout(r, 50));
        records = await api('GET', '/api/auth/v1/sign-ins', { key: target.adminKey });
      }
      assert.ok(failedForCarol(records), records.text);
    });

    it('an e-mail docflow does not know is refused by a provider that may not create persons', async () => {
      const { jar, authorization } = await startLogin();
      const res = await visit(jar, (await callbackUrl(authorization, 'erin')).href);
      assertProblem(res, 401, await res.text());
      assert.equal(jar.get(SESSION_COOKIE), undefined);
    });

    it('a provider that may create persons creates one at the first sign-in, with the roles of their groups', async () => {
      for (const round of ['creates', 'finds']) {
        const { jar, authorization } = await startLogin(undefined, 'keycloak-join');
        const done = await visit(jar, (await callbackUrl(authorization, 'erin')).href);
        assert.equal(done.status, 302, `${round}: ${await done.text()}`);
        const me = await withCookie(target.baseUrl, `${SESSION_COOKIE}=${jar.get(SESSION_COOKIE)}`)(
          'GET',
          '/api/v2/me',
        );
        assert.equal(me.status, 200, me.text);
        assert.equal(me.body.email, 'erin@example.com');
        assert.equal(me.body.name_first, 'Erin');
        assert.equal(me.body.name_last, 'Admin');
        assert.deepEqual(me.body.roles, ['svcAdminSysRW']);
        ids.erin ??= me.body._id_sys;
        assert.equal(me.body._id_sys, ids.erin, 'one person, found again at the second sign-in');
      }
    });

    it('logout ends the session and sends the browser to Keycloak’s end-session endpoint', async () => {
      assert.ok(aliceJar?.get(END_COOKIE), 'the sign-in kept what the logout names');
      const cookie = `${SESSION_COOKIE}=${aliceJar.get(SESSION_COOKIE)}`;
      const res = await visit(aliceJar, `${target.baseUrl}/api/auth/v1/oidc/logout`, { method: 'POST' });
      assert.equal(res.status, 303, await res.text());
      const end = new URL(res.headers.get('location')!);
      assert.equal(`${end.origin}${end.pathname}`, `${keycloakIssuer()}/protocol/openid-connect/logout`);
      assert.ok(end.searchParams.get('id_token_hint'));
      secrets.push(end.searchParams.get('id_token_hint')!);
      assert.equal(end.searchParams.get('post_logout_redirect_uri'), `${target.baseUrl}/console`);
      const me = await withCookie(target.baseUrl, cookie)('GET', '/api/v2/me');
      assertProblem(me, 401, me.text);
      // Keycloak accepts the hint: its logout ends there with a redirect back to the site.
      const back = await fetch(end.href, { redirect: 'manual' });
      assert.equal(back.status, 302, await back.text());
      assert.equal(back.headers.get('location'), `${target.baseUrl}/console`);
    });

    it('no code, token, cookie or client secret is in a log or an event store', () => {
      const haystacks = [target.output()];
      for (const service of ['identity', 'gateway']) {
        for (const suffix of ['', '-wal']) {
          const file = `${target.eventStoreFile(service)}${suffix}`;
          if (existsSync(file)) haystacks.push(readFileSync(file).toString('latin1'));
        }
      }
      assert.ok(secrets.length > 5 && secrets.every(Boolean));
      for (const text of haystacks) {
        for (const client of ['docflow', 'docflow-wrong-aud'])
          assert.ok(!text.includes(realmClient(client).secret), 'a client secret appears');
        for (const secret of secrets) assert.ok(!text.includes(secret), 'a code, token or cookie appears');
      }
    });
  });
}

describe('single sign-on without a provider (embedded)', { timeout: 120_000 }, () => {
  let target: Target;
  before(async () => {
    target = await targets()[0]!.start();
  });
  after(() => target?.stop());

  it('the sign-on routes answer 404 problem+json and list no provider', async () => {
    const api = apiClient(target.baseUrl);
    assertProblem(await fetch(`${target.baseUrl}${LOGIN}`, { redirect: 'manual' }), 404);
    assertProblem(await fetch(`${target.baseUrl}${CALLBACK}?code=x&state=y`, { redirect: 'manual' }), 404);
    const providers = await api('GET', '/api/auth/v1/providers');
    assert.equal(providers.status, 200, providers.text);
    assert.deepEqual(providers.body, []);
  });

  it('password sign-in works with nothing else running', async () => {
    const api = apiClient(target.baseUrl);
    const created = await api('POST', '/api/admin/v1/accounts', {
      key: target.adminKey,
      body: { kind: 'person', email: 'pat@example.com', name_first: 'Pat', name_last: 'Local', roles: [] },
    });
    assert.equal(created.status, 201, created.text);
    const pwd = await api('POST', '/api/v2/person', {
      key: target.adminKey,
      body: { _id_sys: created.body._id_sys, pwd: PASSWORD },
    });
    assert.equal(pwd.status, 200, pwd.text);
    const { cookie } = await signIn(target.baseUrl, 'pat@example.com', PASSWORD);
    const me = await withCookie(target.baseUrl, cookie)('GET', '/api/v2/me');
    assert.equal(me.status, 200, me.text);
  });
});
