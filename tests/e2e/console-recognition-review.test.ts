/**
 * Checking recognition beside the page (issue 33), in Chromium against a fresh embedded instance, on a
 * desktop (1280 px) and a phone (375 px): a validator opens a document whose scanned PDF is still being
 * recognised; the values appear by themselves when recognition ends (no refresh); the page image,
 * rendered by the server, stands beside the values; focusing a value marks where it was read.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { drawPage, imagePdf } from '@docflow/recognition';
import type { Browser, Page } from 'playwright-core';
import {
  chromiumSkipReason,
  launchChromium,
  newConsolePage,
  SHOTS,
  screenshot,
  signInWithKey,
} from '../support/chromium';
import { createDoc } from '../support/documents';
import { startEmbedded, type Target } from '../support/targets';

const skip = chromiumSkipReason();
const INVOICE = [
  { text: 'INVOICE', size: 28 },
  { text: 'ACME GmbH, Hauptstrasse 1, 10115 Berlin' },
  { text: 'Invoice No. INV-2026-077' },
  { text: 'Total: 1,234.50' },
];
const NOTE = [{ text: 'DELIVERY NOTE', size: 28 }, { text: 'Supplier: ACME GmbH' }];
// Expressions the page evaluates (the tests' types have no DOM).
const PAGE_WIDTH = 'document.documentElement.scrollWidth';
/**
 * Waits are functions, not strings: the console's Content Security Policy (`script-src 'self'`) refuses
 * the eval Playwright needs for a string predicate.
 */
const imageLoaded = (alt: string) => {
  const image = (globalThis as any).document.querySelector(`img[alt="${alt}"]`);
  return Boolean(image?.complete && image.naturalWidth > 0);
};
/** The mark stands further down the page image than `offset` (relative to the image: focus may scroll). */
const highlightBelow = (offset: number) => {
  const document = (globalThis as any).document;
  const mark = document.querySelector('.page-highlight')?.getBoundingClientRect();
  const image = document.querySelector('img[alt="Page 1 of the attachment"]')?.getBoundingClientRect();
  return Boolean(mark && image) && mark.y - image.y > offset;
};

describe('web console: recognition review', { skip, timeout: 300_000 }, () => {
  let target: Target;
  let browser: Browser;
  const pageErrors: string[] = [];

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [target, browser] = await Promise.all([startEmbedded(), launchChromium()]);
  });
  after(async () => {
    await browser?.close();
    await target?.stop();
  });

  /** A scanned invoice (and a delivery note after it), still being recognised when this returns. */
  async function scannedInvoice(): Promise<string> {
    const scan = imagePdf([drawPage(INVOICE, 200), drawPage(NOTE, 200), drawPage(NOTE, 200)]);
    const res = await createDoc(target.baseUrl, target.adminKey, 'invoice', {
      docForm: {},
      files: [{ name: 'scan.pdf', content: scan, type: 'application/pdf' }],
    });
    assert.equal(res.status, 201, res.text);
    return res.body._id_web;
  }

  /** The invoice's part once it is shown, its page image loaded, its invoice number focused and marked. */
  async function reviewInvoice(page: Page) {
    const part = page.getByRole('article', { name: /Part 1: Invoice/ });
    await part.waitFor();
    const image = part.getByRole('img', { name: 'Page 1 of the attachment' });
    await image.waitFor();
    await page.waitForFunction(imageLoaded, 'Page 1 of the attachment');
    const invoiceNo = part.getByLabel('invoiceNo');
    assert.equal(await invoiceNo.inputValue(), 'INV-2026-077');
    await invoiceNo.focus();
    const mark = part.getByRole('img', { name: 'Where the value in focus was read' });
    await mark.waitFor();
    const [imageBox, markBox] = [await image.boundingBox(), await mark.boundingBox()];
    assert.ok(imageBox && markBox);
    // On the page, in its upper part, where drawPage wrote the third line.
    assert.ok(markBox.x > imageBox.x && markBox.x + markBox.width < imageBox.x + imageBox.width);
    const fromTop = (markBox.y - imageBox.y) / imageBox.height;
    assert.ok(fromTop > 0.1 && fromTop < 0.3, `the mark is ${fromTop} of the page down`);
    // Another value moves the mark.
    await part.getByLabel('total').focus();
    await page.waitForFunction(highlightBelow, markBox.y - imageBox.y);
  }

  it('desktop: the values appear by themselves beside the page image, the one in focus marked', async () => {
    const page = await newConsolePage(browser, pageErrors);
    await signInWithKey(page, target.baseUrl, target.adminKey);
    const id = await scannedInvoice();
    await page.goto(`${target.baseUrl}/console#/doc/${id}`);
    await page.getByRole('status').filter({ hasText: 'Recognition is running' }).waitFor();
    // Nobody reloads: the page asks again by itself until recognition has ended.
    await reviewInvoice(page);
    await page
      .getByRole('status')
      .filter({ hasText: 'Recognition is running' })
      .waitFor({ state: 'detached' });
    await screenshot(page, 'recognition-review-1280', pageErrors);
    // Validating offers to copy the values into the document's fields: asked for, the fields follow.
    const part = page.getByRole('article', { name: /Part 1: Invoice/ });
    await part.getByLabel('total').fill('1,234.55');
    await part.getByLabel("Also copy these values into the document's fields").check();
    await part.getByRole('button', { name: 'Validate' }).click();
    await page.getByRole('status').filter({ hasText: 'Part 1 (Invoice) validated' }).waitFor();
    await page.getByRole('region', { name: 'Fields' }).getByText('1,234.55').waitFor();
    await screenshot(page, 'recognition-review-validated-1280', pageErrors);
    await page.context().close();
  });

  it('375 px: the page image above the values, nothing wider than the screen', async () => {
    const page = await newConsolePage(browser, pageErrors, { viewport: { width: 375, height: 812 } });
    await signInWithKey(page, target.baseUrl, target.adminKey);
    const id = await scannedInvoice();
    await page.goto(`${target.baseUrl}/console#/doc/${id}`);
    await reviewInvoice(page);
    assert.ok((await page.evaluate<number>(PAGE_WIDTH)) <= 375, 'no horizontal overflow');
    await screenshot(page, 'recognition-review-375', pageErrors);
    await page.context().close();
  });
});
