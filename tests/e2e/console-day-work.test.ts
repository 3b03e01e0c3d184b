/**
 * A day's work in the web console (issue 33), in Debian's Chromium driven by playwright-core against a
 * fresh embedded instance: a search box with ranked results and marked snippets that link to the
 * document; people looked up by e-mail (an erased person not by their old address); no horizontal page
 * overflow at 375 px; a tab title per page and focus on the page's heading after a navigation; times in
 * the browser's zone, named; a new API key shown whole with a Copy button; and axe-core finding no
 * serious or critical accessibility violation on the main pages.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumSkipReason, seriousViolations } from '../support/chromium';
import { consoleSuite } from '../support/console-suite';
import { createDoc, createPerson, eventually } from '../support/documents';

const skip = chromiumSkipReason();

const FORM = {
  name: 'day-memo',
  title: 'Day memo',
  formsystype: 9,
  tags: { subject: 'string', note: 'string' },
  workflow: { approval: { stages: [{ participants: ['bob@example.com'] }] }, dueDays: 3 },
};
// Expressions the page evaluates (the tests' types have no DOM).
const PAGE_WIDTH = 'document.documentElement.scrollWidth';
const FOCUSED_TEXT = 'document.activeElement?.textContent';
/** A value that would be markup if a snippet were built as HTML. */
const HOSTILE = 'cranes <img src=x id=injected> and <b>harbour</b>';

describe('web console: a day\u2019s work', { skip, timeout: 300_000 }, () => {
  const suite = consoleSuite();
  let memoId: string;
  let aliceId: string;

  before(async () => {
    const admin = suite.target.adminKey;
    aliceId = await createPerson(suite.api, admin, 'alice@example.com');
    await createPerson(suite.api, admin, 'bob@example.com');
    const erin = await createPerson(suite.api, admin, 'erin@example.com');
    assert.equal(
      (await suite.api('POST', `/api/admin/v1/accounts/${erin}/erase`, { key: admin })).status,
      200,
    );
    assert.equal(
      (await suite.api('PUT', `/api/admin/v1/forms/${FORM.name}`, { key: admin, body: FORM })).status,
      201,
    );
    const memo = await createDoc(
      suite.target.baseUrl,
      admin,
      FORM.name,
      {
        docForm: { valuesByTags: { subject: 'Quay inspection', note: HOSTILE } },
        docResponse: { taskstatus: 100 },
      },
      { runAs: 'alice@example.com' },
    );
    assert.equal(memo.status, 201, memo.text);
    memoId = memo.body._id_web;
    // The search index follows a new document within moments.
    const found = await eventually(
      () => suite.api('GET', '/api/v2/docForm/view/all?q=crane', { key: admin }),
      (r) => r.body.some((d: { _id_web: string }) => d._id_web === memoId),
    );
    assert.ok(
      found.body.some((d: { _id_web: string }) => d._id_web === memoId),
      'the search finds the memo',
    );
  });

  /** The main pages, each with what shows it has loaded (the document's table, the inbox's row…). */
  const MAIN_PAGES = (): [string, string, (p: Page) => Promise<void>][] => [
    ['inbox', '#/inbox', (p) => p.getByRole('row').filter({ hasText: memoId }).waitFor()],
    ['views', '#/views/all', (p) => p.getByRole('row').filter({ hasText: memoId }).waitFor()],
    ['document', `#/doc/${memoId}`, (p) => p.getByRole('region', { name: 'Your task' }).waitFor()],
    ['search', '#/search?q=crane', (p) => p.getByRole('listitem').filter({ hasText: memoId }).waitFor()],
  ];
  const ADMIN_PAGES = (): [string, string, (p: Page) => Promise<void>][] => [
    ['accounts', '#/admin/accounts', (p) => p.getByRole('table', { name: 'Accounts' }).waitFor()],
    ['forms', '#/admin/forms', (p) => p.getByRole('heading', { name: 'Forms' }).waitFor()],
    ['new', '#/new', (p) => p.getByRole('heading', { name: 'New document' }).waitFor()],
  ];

  it('the search box finds a document by a word, ranked, its snippet marked and escaped, and opens it', async () => {
    const page = await suite.signedIn();
    const search = page.getByRole('form', { name: 'Search documents' });
    await search.getByRole('searchbox').fill('Crane');
    await search.getByRole('button', { name: 'Search' }).click();
    const result = page.getByRole('listitem').filter({ hasText: memoId });
    await result.waitFor();
    assert.deepEqual(await result.locator('mark').allInnerTexts(), ['cranes']);
    // The value's markup is shown as text, never made into elements.
    assert.equal(await page.locator('#injected').count(), 0);
    assert.match((await result.textContent()) ?? '', /<img src=x id=injected> and <b>harbour<\/b>/);
    assert.equal(await result.locator('b, img').count(), 0);
    await suite.shot(page, 'day-1-search');
    await result.getByRole('link').click();
    await page.waitForURL(`**/console#/doc/${memoId}`);
    await page.getByRole('heading', { level: 1 }).filter({ hasText: memoId }).waitFor();
    await page.context().close();
  });

  it('people are looked up by e-mail, an erased person not by the old address', async () => {
    const page = await suite.signedIn();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Accounts' }).click();
    const open = page.getByRole('form', { name: 'Open an account' });
    await open.getByLabel('Name, e-mail or account id').fill('ALICE@example.com');
    await open.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('article', { name: 'Account alice@example.com' }).waitFor();
    await open.getByLabel('Name, e-mail or account id').fill('erin@example.com');
    await open.getByRole('button', { name: 'Open' }).click();
    const refused = page.getByRole('alert').filter({ hasText: 'No account holds this e-mail' });
    await refused.waitFor();
    await suite.shot(page, 'day-2-lookup');

    // The views' author filter takes an e-mail and lists that person's documents.
    await page.goto(`${suite.target.baseUrl}/console#/views/all`);
    const filters = page.getByRole('form', { name: 'View and filters' });
    await filters.getByLabel('Author(s): name, e-mail or id').fill('alice@example.com');
    await filters.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(`**author=${aliceId}**`);
    await page.getByRole('row').filter({ hasText: memoId }).waitFor();
    await page.context().close();
  });

  it('accounts list newest first; a new API key is shown whole with a Copy button', async () => {
    const page = await suite.signedIn('', { permissions: ['clipboard-read', 'clipboard-write'] });
    await page.goto(`${suite.target.baseUrl}/console#/admin/accounts`);
    const table = page.getByRole('table', { name: 'Accounts' });
    await table.waitFor();
    const create = page.getByRole('form', { name: 'New account' });
    await create.getByLabel('Service account (gets an API key)').check();
    await create.getByLabel('E-mail').fill('robot@example.com');
    await create.getByLabel('First name').fill('Robot');
    await create.getByLabel('Last name').fill('Worker');
    await create.getByRole('button', { name: 'Create account' }).click();
    const card = page.getByRole('article', { name: 'Account robot@example.com' });
    const key = card.getByLabel(/API key/);
    await key.waitFor();
    const shown = await key.inputValue();
    assert.match(shown, /^dfk_[0-9a-f]{32}_\S+$/);
    assert.ok(
      await key.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight),
      'the key is not cut off',
    );
    await card.getByRole('button', { name: 'Copy the API key' }).click();
    await card.getByRole('status').filter({ hasText: 'Copied.' }).waitFor();
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), shown);
    await table.getByRole('row').filter({ hasText: 'robot@example.com' }).waitFor();
    const firstRow = table.getByRole('row').nth(1);
    assert.match((await firstRow.textContent()) ?? '', /robot@example\.com/, 'newest first');
    await suite.shot(page, 'day-3-new-key');
    await page.context().close();
  });

  it('at 375 px no page is wider than the screen', async () => {
    const mobile = { viewport: { width: 375, height: 800 }, isMobile: true, hasTouch: true };
    const anon = await suite.browser.newPage(mobile);
    await anon.goto(`${suite.target.baseUrl}/console`);
    await anon.getByRole('heading', { name: 'Sign in to docflow' }).waitFor();
    const signInWidth = await anon.evaluate<number>(PAGE_WIDTH);
    assert.ok(signInWidth <= 375, `sign-in: ${signInWidth} px wide`);
    await anon.close();
    for (const [runAs, pages] of [
      ['bob@example.com', MAIN_PAGES()],
      ['', ADMIN_PAGES()],
    ] as const) {
      const page = await suite.signedIn(runAs, mobile);
      for (const [name, hash, loaded] of pages) {
        await page.goto(`${suite.target.baseUrl}/console${hash}`);
        await loaded(page);
        const width = await page.evaluate<number>(PAGE_WIDTH);
        assert.ok(width <= 375, `${name}: ${width} px wide`);
        if (name === 'inbox' || name === 'document') await suite.shot(page, `day-4-375-${name}`);
      }
      await page.context().close();
    }
  });

  it('each page names the tab, and a navigation moves focus to its heading', async () => {
    const page = await suite.signedIn('bob@example.com');
    assert.equal(await page.title(), 'Inbox · docflow');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Views' }).click();
    await page.waitForFunction("document.activeElement?.tagName === 'H1'");
    assert.equal(await page.evaluate(FOCUSED_TEXT), 'Views');
    assert.equal(await page.title(), 'Views · docflow');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inbox' }).click();
    await page.waitForFunction(`${FOCUSED_TEXT} === 'Inbox'`);
    await page.getByRole('row').filter({ hasText: memoId }).getByRole('link').first().click();
    await page.getByRole('region', { name: 'Your task' }).waitFor();
    const heading = (await page.getByRole('heading', { level: 1 }).textContent())?.trim() ?? '';
    assert.match(heading, new RegExp(memoId));
    assert.equal(await page.title(), `${heading} · docflow`);
    assert.equal(await page.evaluate('document.activeElement?.tagName'), 'H1');
    await page.context().close();
  });

  it('times are shown in the browser\u2019s zone, the zone named', async () => {
    const page = await suite.signedIn('bob@example.com', { timezoneId: 'Asia/Kolkata', locale: 'en-US' });
    await page.goto(`${suite.target.baseUrl}/console#/doc/${memoId}`);
    await page.getByRole('region', { name: 'Your task' }).waitFor();
    const created = page.locator('dt', { hasText: 'Created' }).locator('xpath=following-sibling::dd[1]');
    const text = (await created.textContent()) ?? '';
    assert.match(text, /\(GMT\+5:30\)$/);
    const read = await suite.api('GET', `/api/v2/docForm/${memoId}`, { key: suite.target.adminKey });
    const local = new Date(Date.parse(read.body.datecreated) + 330 * 60_000);
    assert.match(
      text,
      new RegExp(`\\b${local.getUTCHours() % 12 || 12}:${String(local.getUTCMinutes()).padStart(2, '0')}\\b`),
    );
    await page.context().close();
  });

  it('axe-core finds no serious or critical violation on the main pages', async () => {
    const found: string[] = [];
    async function check(page: Page, name: string) {
      found.push(...(await seriousViolations(page, name)));
    }
    // The console's CSP allows no inline script; axe is the test's, not the page's.
    const anon = await suite.browser.newPage({ bypassCSP: true });
    await anon.goto(`${suite.target.baseUrl}/console`);
    await anon.getByRole('heading', { name: 'Sign in to docflow' }).waitFor();
    await check(anon, 'sign-in');
    await anon.close();
    for (const [runAs, pages] of [
      ['bob@example.com', MAIN_PAGES()],
      ['', ADMIN_PAGES().slice(0, 1)],
    ] as const) {
      const page = await suite.signedIn(runAs, { bypassCSP: true });
      for (const [name, hash, loaded] of pages) {
        await page.goto(`${suite.target.baseUrl}/console${hash}`);
        await loaded(page);
        await check(page, name);
      }
      await page.context().close();
    }
    assert.deepEqual(found, []);
  });
});
