/**
 * `/docs` (Swagger UI) in a real browser under its Content-Security-Policy (issue 29, finding 8): the
 * API renders with no policy violation, and a key given to "Authorize" is kept in no storage. Debian's
 * Chromium driven by playwright-core, as tests/e2e/console.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { chromiumSkipReason, launchChromium } from '../support/chromium';
import { startEmbedded, type Target } from '../support/targets';

const skip = chromiumSkipReason();
const KEY = 'dfk_pasted-into-authorize';

describe('/docs in Chromium', { skip, timeout: 180_000 }, () => {
  let target: Target;
  let browser: Browser;
  before(async () => {
    [target, browser] = await Promise.all([startEmbedded(), launchChromium()]);
  });
  after(async () => {
    await browser?.close();
    await target?.stop();
  });

  it('renders the API under its CSP with no violation, and keeps an authorized key in no storage', async () => {
    const page = await browser.newPage();
    const violations: string[] = [];
    const requestsElsewhere: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    page.on('pageerror', (e) => violations.push(String(e)));
    page.on('request', (r) => {
      if (!r.url().startsWith(target.baseUrl) && !r.url().startsWith('data:'))
        requestsElsewhere.push(r.url());
    });
    const res = await page.goto(`${target.baseUrl}/docs`);
    assert.match(res?.headers()['content-security-policy'] ?? '', /script-src 'self'/);
    // The operations, read from /openapi.json, are on the page.
    await page.locator('.opblock-summary-path', { hasText: '/api/v2/docForm/{id}' }).first().waitFor();

    await page.locator('button.authorize').first().click();
    await page.locator('.modal-ux input').first().fill(KEY);
    await page.locator('.modal-ux button[type=submit]').first().click();
    await page.locator('.modal-ux button', { hasText: 'Logout' }).first().waitFor();
    await page.locator('.modal-ux button.close-modal').click();
    // An expression the page evaluates (the tests' types have no DOM).
    const stored = String(
      await page.evaluate('JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } })'),
    );
    assert.ok(!stored.includes(KEY), `the key is kept in no storage: ${stored}`);

    assert.deepEqual(violations, []);
    assert.deepEqual(requestsElsewhere, []);
    await page.close();
  });
});
