/**
 * A person signs in to the web console through the real Keycloak infra/local starts (realm
 * infra/keycloak/realm-docflow.json), in Debian's Chromium driven by playwright-core: "Sign in with
 * Keycloak", Keycloak's own login page, back in the console as the docflow person Keycloak vouched for
 * (by verified e-mail), the inbox, the document, a task approved; then Sign out, which ends the session
 * at docflow and at Keycloak (RP-initiated logout) and comes back to the console's sign-in page.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { chromiumSkipReason, launchChromium, SHOTS, screenshot } from '../support/chromium';
import { createDoc, createPerson } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { keycloakIssuer, keycloakSkipReason, realmClient } from '../support/keycloak';
import { SESSION_COOKIE } from '../support/sign-in';
import { startEmbedded, type Target } from '../support/targets';

const skip = keycloakSkipReason() ?? chromiumSkipReason();

/** A user of the committed realm (e-mail verified there) and the docflow person of that e-mail. */
const USER = { username: 'carol', password: 'carol-local-pass', email: 'carol@example.com' };
const END_COOKIE = `${SESSION_COOKIE}_oidc_end`;
const FORM = {
  name: 'sso-memo',
  title: 'Single sign-on memo',
  formsystype: 9,
  tags: { subject: 'string' },
  titleField: 'subject',
  workflow: { approval: { stages: [{ participants: [USER.email] }] }, dueDays: 3 },
};

/** The realm's docflow client as the one provider; none when Keycloak is not there (then skipped). */
function providersEnv(): Record<string, string> {
  const issuer = process.env.KEYCLOAK_ISSUER;
  if (!issuer) return {};
  const { clientId, secret } = realmClient('docflow');
  return {
    DOCFLOW_OIDC_PROVIDERS: JSON.stringify([
      { id: 'keycloak', name: 'Keycloak', issuer, clientId, clientSecret: secret },
    ]),
  };
}

describe('web console: a person signs in through Keycloak and out again', { skip, timeout: 300_000 }, () => {
  let target: Target;
  let api: Api;
  let browser: Browser;
  let page: Page;
  let memoId: string;
  const pageErrors: string[] = [];

  before(async () => {
    keycloakIssuer(); // with DOCFLOW_ENGINES_REQUIRED=1 and no Keycloak: fail here, loudly
    mkdirSync(SHOTS, { recursive: true });
    [target, browser] = await Promise.all([startEmbedded({ env: providersEnv() }), launchChromium()]);
    api = apiClient(target.baseUrl);
    const admin = target.adminKey;
    await createPerson(api, admin, USER.email);
    await createPerson(api, admin, 'sso-author@example.com');
    assert.equal(
      (await api('PUT', `/api/admin/v1/forms/${FORM.name}`, { key: admin, body: FORM })).status,
      201,
    );
    const memo = await createDoc(
      target.baseUrl,
      admin,
      FORM.name,
      { docForm: { valuesByTags: { subject: 'Ergonomic chairs' } }, docResponse: { taskstatus: 100 } },
      { runAs: 'sso-author@example.com' },
    );
    assert.equal(memo.status, 201, memo.text);
    memoId = memo.body._id_web;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(60_000);
    page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
  });
  after(async () => {
    await browser?.close();
    await target?.stop();
  });

  const shot = (name: string) => screenshot(page, name, pageErrors);

  /** From the console's sign-in page to Keycloak's own login form. */
  async function toKeycloakLogin() {
    await page.getByRole('link', { name: 'Sign in with Keycloak' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${keycloakIssuer()}/protocol/openid-connect/auth?`));
    await page.locator('#kc-form-login').waitFor();
  }

  it('signs in on Keycloak’s login page and approves a task in the console', async () => {
    await page.goto(`${target.baseUrl}/console`);
    await toKeycloakLogin();
    await shot('sso-0-keycloak-login');
    await page.locator('#username').fill(USER.username);
    await page.locator('#password').fill(USER.password);
    await page.locator('#kc-login').click();

    await page.waitForURL(`${target.baseUrl}/console`);
    const who = page.getByText(/^Signed in as /);
    await who.waitFor();
    assert.equal(await who.textContent(), 'Signed in as carol Test');
    const row = page.getByRole('row').filter({ hasText: memoId });
    await row.waitFor();
    await shot('sso-1-inbox');
    await row.getByRole('link', { name: 'Ergonomic chairs' }).click();
    const task = page.getByRole('region', { name: 'Your task' });
    await task.waitFor();
    await task.getByLabel('Comment').fill('Approved through single sign-on.');
    await task.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Approve: done' }).waitFor();
    await shot('sso-2-approved');
    const read = await api('GET', `/api/v2/docForm/${memoId}`, { key: target.adminKey });
    assert.equal(read.body.status, 4, 'the approval phase completed');
  });

  it('signs out at docflow and at Keycloak, back on the console’s sign-in page', async () => {
    const cookies = async () => new Map((await page.context().cookies()).map((c) => [c.name, c.value]));
    const session = (await cookies()).get(SESSION_COOKIE);
    assert.ok(session, 'the console is signed in with the session cookie');
    assert.ok((await cookies()).get(END_COOKIE), 'the sign-in kept what the provider’s logout needs');
    const endSession = `${keycloakIssuer()}/protocol/openid-connect/logout`;
    /** The pages the browser went to (without their queries, which hold the ID token). */
    const visited: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (req.isNavigationRequest()) visited.push(`${url.origin}${url.pathname}`);
    });

    await page.getByRole('button', { name: 'Sign out' }).click();
    // The signed-in page stays until the browser has left it: the link is the sign-in page's.
    await page.getByRole('link', { name: 'Sign in with Keycloak' }).waitFor();
    await shot('sso-3-signed-out');
    assert.ok(
      visited.includes(endSession),
      `the browser went through Keycloak’s end-session endpoint (it visited: ${visited.join(', ')})`,
    );
    assert.equal(page.url(), `${target.baseUrl}/console`, 'Keycloak sent the browser back to the console');
    const me = await api('GET', '/api/v2/me', { headers: { cookie: `${SESSION_COOKIE}=${session}` } });
    assert.equal(me.status, 401, 'the session ended at docflow');
    assert.ok(!(await cookies()).has(SESSION_COOKIE) && !(await cookies()).has(END_COOKIE));

    // Keycloak's session ended too: signing in again asks for the password rather than passing through.
    await toKeycloakLogin();
  });
});
