/**
 * A person signs in to the web console with e-mail and password (a session cookie, no API key) in
 * Debian's Chromium driven by playwright-core, against a fresh embedded instance: the header says who
 * is signed in, the menus and buttons are those `/me` and the document's `embed=actions` allow, a task
 * is approved with the cookie (the gateway's CSRF check lets the console's own requests through), and
 * signing out ends the session at the server.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { chromiumSkipReason, launchChromium, newConsolePage, SHOTS, screenshot } from '../support/chromium';
import { createDoc, createPerson } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { SESSION_COOKIE } from '../support/sign-in';
import { startEmbedded, type Target } from '../support/targets';

const skip = chromiumSkipReason();

const PASSWORD = 'Console-Sign-In-Password-5b2e';
const FORM = {
  name: 'signin-memo',
  title: 'Sign-in memo',
  formsystype: 9,
  tags: { subject: 'string' },
  titleField: 'subject',
  workflow: { approval: { stages: [{ participants: ['bob@example.com'] }] }, dueDays: 3 },
};

describe('web console: a person signs in with e-mail and password', { skip, timeout: 300_000 }, () => {
  let target: Target;
  let api: Api;
  let browser: Browser;
  let memoId: string;
  const pageErrors: string[] = [];

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [target, browser] = await Promise.all([startEmbedded(), launchChromium()]);
    api = apiClient(target.baseUrl);
    const admin = target.adminKey;
    for (const name of ['alice', 'bob']) {
      const id = await createPerson(api, admin, `${name}@example.com`);
      const pwd = await api('POST', '/api/v2/person', { key: admin, body: { _id_sys: id, pwd: PASSWORD } });
      assert.equal(pwd.status, 200, pwd.text);
    }
    assert.equal(
      (await api('PUT', `/api/admin/v1/forms/${FORM.name}`, { key: admin, body: FORM })).status,
      201,
    );
    const memo = await createDoc(
      target.baseUrl,
      admin,
      FORM.name,
      { docForm: { valuesByTags: { subject: 'Standing desks' } }, docResponse: { taskstatus: 100 } },
      { runAs: 'alice@example.com' },
    );
    assert.equal(memo.status, 201, memo.text);
    memoId = memo.body._id_web;
  });
  after(async () => {
    await browser?.close();
    await target?.stop();
  });

  /** A new browser context (its own cookies and session storage), signed in as `name` with the password. */
  async function signedIn(name: string): Promise<Page> {
    const page = await newConsolePage(browser, pageErrors);
    await page.goto(`${target.baseUrl}/console`);
    const form = page.getByRole('form', { name: 'Sign in with e-mail and password' });
    await form.getByLabel('E-mail').fill(`${name}@example.com`);
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    return page;
  }

  const shot = (page: Page, name: string) => screenshot(page, name, pageErrors);

  const menu = (page: Page) =>
    page.getByRole('navigation', { name: 'Main' }).getByRole('link').allInnerTexts();

  it('a wrong password is refused on the page, and no provider is offered when none is configured', async () => {
    const page = await browser.newPage();
    await page.goto(`${target.baseUrl}/console`);
    const form = page.getByRole('form', { name: 'Sign in with e-mail and password' });
    await form.getByLabel('E-mail').fill('bob@example.com');
    await form.getByLabel('Password').fill('not the password');
    await form.getByRole('button', { name: 'Sign in' }).click();
    const alert = form.getByRole('alert');
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /wrong e-mail or password/);
    assert.equal(await page.getByRole('link', { name: /^Sign in with/ }).count(), 0);
    await shot(page, 'sign-in-0-refused');
    await page.close();
  });

  it('offers "Sign in with <provider>" for each provider the gateway lists', async () => {
    const page = await browser.newPage();
    await page.route('**/api/auth/v1/providers', (route) =>
      route.fulfill({ json: [{ id: 'corp', name: 'Corp SSO' }] }),
    );
    await page.goto(`${target.baseUrl}/console`);
    const link = page.getByRole('link', { name: 'Sign in with Corp SSO' });
    await link.waitFor();
    assert.equal(await link.getAttribute('href'), '/api/auth/v1/oidc/login?provider=corp');
    await page.close();
  });

  it('an approver signs in, sees their inbox and no admin menu, approves a task, and signs out', async () => {
    const page = await signedIn('bob');
    const who = page.getByText(/^Signed in as /);
    assert.equal(await who.textContent(), 'Signed in as bob Test');
    assert.deepEqual(await menu(page), ['Inbox', 'Views', 'New document']);
    const row = page.getByRole('row').filter({ hasText: memoId });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /Standing desks/);
    await shot(page, 'sign-in-1-approver-inbox');
    await row.getByRole('link', { name: 'Standing desks' }).click();
    const task = page.getByRole('region', { name: 'Your task' });
    await task.waitFor();
    assert.deepEqual(await task.getByRole('button').allInnerTexts(), [
      'Approve',
      'Approve with edits',
      'Decline',
    ]);
    // Not the author and no document role: the server would refuse every management move.
    assert.equal(await page.getByRole('region', { name: 'Manage the workflow' }).count(), 0);
    for (const name of ['Suspend', 'Cancel workflow', 'Delete', 'Block'])
      assert.equal(await page.getByRole('button', { name }).count(), 0, `${name} is shown`);
    await task.getByLabel('Comment').fill('Fine by me.');
    await task.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Approve: done' }).waitFor();
    await shot(page, 'sign-in-2-approved');
    const read = await api('GET', `/api/v2/docForm/${memoId}`, { key: target.adminKey });
    assert.equal(read.body.status, 4, 'the approval phase completed');

    const [cookie] = (await page.context().cookies()).filter((c) => c.name === SESSION_COOKIE);
    assert.ok(cookie?.httpOnly, 'the session cookie is HttpOnly');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('form', { name: 'Sign in with e-mail and password' }).waitFor();
    const after = await api('GET', '/api/v2/me', {
      headers: { cookie: `${SESSION_COOKIE}=${cookie.value}` },
    });
    assert.equal(after.status, 401, 'the session ended at the server');
    await shot(page, 'sign-in-3-signed-out');
    await page.context().close();
  });

  it('the author sees the management moves the server allows on their own document', async () => {
    const mine = await createDoc(
      target.baseUrl,
      target.adminKey,
      FORM.name,
      { docForm: { valuesByTags: { subject: 'Monitors' } }, docResponse: { taskstatus: 100 } },
      { runAs: 'alice@example.com' },
    );
    assert.equal(mine.status, 201, mine.text);
    const page = await signedIn('alice');
    await page.goto(`${target.baseUrl}/console#/doc/${mine.body._id_web}`);
    const manage = page.getByRole('region', { name: 'Manage the workflow' });
    await manage.waitFor();
    const offered = await manage.getByRole('button').allInnerTexts();
    assert.ok(offered.includes('Suspend') && offered.includes('Cancel workflow'), offered.join());
    assert.ok(!offered.includes('Resume') && !offered.includes('Start approval'), offered.join());
    assert.equal(await page.getByRole('region', { name: 'Your task' }).count(), 0);
    await shot(page, 'sign-in-4-author-manages');
    await page.context().close();
  });
});
