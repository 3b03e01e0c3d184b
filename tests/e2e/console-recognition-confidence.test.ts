/**
 * Per-field confidence in the recognition review (issue 34), in Chromium against a fresh embedded
 * instance, at 1280 and 375 px: an invoice whose subtotal and tax do not add up to its total is read
 * with its number sure and its amounts below the threshold (the cross-check lowers them). Each value
 * carries a mark in words (`sure 100`, `check 70`) that describes its input; the values below the
 * threshold are flagged and listed first ("Needs checking"), a click on one takes the focus to it and
 * marks it on the page. The threshold is the one recognition judged the part by (`autoValidateAt` on
 * the part: the form's, shown to its validator, who may not read forms) where the form sets one, else the
 * console's default (90), and the summary says which. A value read from the correction memory says
 * "from memory". axe-core finds no serious or critical violation.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { textPdf } from '@docflow/recognition';
import type { Locator, Page } from 'playwright-core';
import { chromiumSkipReason, seriousViolations } from '../support/chromium';
import { consoleSuite } from '../support/console-suite';
import { createPerson, createRecognised, eventually, RECOGNITION_WAIT_MS } from '../support/documents';
import { invoiceByTypeForm, invoiceLines } from '../support/invoice-by-type';
import { quillfeatherInvoice } from '../support/quillfeather';

const skip = chromiumSkipReason();
const FORM_THRESHOLD = 80;
const DEFAULT_THRESHOLD = 90;
const PAGE_WIDTH = 'document.documentElement.scrollWidth';
/** Whether the element is the one in focus (run in the page: a function, as the console's CSP wants). */
const isFocused = (element: unknown) => element === (globalThis as any).document.activeElement;

describe('web console: per-field confidence in the recognition review', { skip, timeout: 300_000 }, () => {
  const suite = consoleSuite();
  /** The `checked` form's validator: a person with no role, who may not read forms. */
  let valerie: string;

  before(async () => {
    valerie = await createPerson(suite.api, suite.target.adminKey, 'valerie@example.com');
    // `unchecked` sets no threshold: the console's default applies.
    for (const form of [
      invoiceByTypeForm('checked', 'Checked invoice', {
        autoValidateAt: FORM_THRESHOLD,
        validators: ['valerie@example.com'],
      }),
      invoiceByTypeForm('unchecked', 'Checked invoice'),
    ]) {
      const put = await suite.api('PUT', `/api/admin/v1/forms/${form.name}`, {
        key: suite.target.adminKey,
        body: form,
      });
      assert.equal(put.status, 201, put.text);
    }
  });

  /** A recognised invoice of `form`: its id and its part's per-field confidences as the API answers them. */
  async function recognised(
    form: string,
    content = textPdf([invoiceLines()]),
  ): Promise<{ id: string; docId: string; part: any; confidence: Record<string, number> }> {
    const read = await createRecognised(suite.api, suite.target.baseUrl, suite.target.adminKey, form, {
      name: 'invoice.pdf',
      content,
      type: 'application/pdf',
    });
    const part = read.body.recoData?.[0];
    assert.equal(part?.validated, false, JSON.stringify(read.body));
    const confidence = Object.fromEntries(
      Object.entries<any>(part.fieldsByTags).map(([tag, field]) => [tag, field.confidence as number]),
    );
    return { id: read.body._id_web, docId: read.body._id, part, confidence };
  }

  /** The mark under the value of `tag`: the element its input names as its description. */
  async function markOf(part: Locator, tag: string): Promise<Locator> {
    const described = await part.getByLabel(tag, { exact: true }).getAttribute('aria-describedby');
    assert.ok(described, `the input of ${tag} is described by its mark`);
    return part.locator(`[id="${described}"]`);
  }

  /**
   * The review of the part at `threshold`: invoiceNo sure, total below the threshold, both with their
   * numbers, the low values flagged and listed least sure first; a click on one focuses it.
   */
  async function checkMarks(
    page: Page,
    confidence: Record<string, number>,
    threshold: number,
    summary: RegExp,
  ): Promise<void> {
    const part = page.getByRole('article', { name: /Part 1: Invoice/ });
    await part.waitFor();
    const [high, low] = [confidence.invoiceNo ?? -1, confidence.total ?? -1];
    assert.ok(high >= threshold && low >= 50 && low < threshold, JSON.stringify(confidence));
    // The summary shows once the threshold is known: how many, at which threshold and whose.
    const below = Object.keys(confidence).filter((tag) => (confidence[tag] ?? -1) < threshold);
    const checking = part.locator('.needs-checking');
    await checking.getByText(`Needs checking: ${below.length} of 4 values`).waitFor();
    assert.match((await checking.textContent())?.replace(/\s+/g, ' ') ?? '', summary);

    const highMark = await markOf(part, 'invoiceNo');
    const lowMark = await markOf(part, 'total');
    // In words, not colour only; a screen reader hears it with the input.
    const text = async (mark: Locator) => (await mark.textContent())?.replace(/\s+/g, ' ').trim();
    assert.equal(await text(highMark), `Recognition confidence: sure ${Math.round(high)}`);
    assert.equal(await text(lowMark), `Recognition confidence: check ${Math.round(low)}`);
    // Flagged: the low value's field, not the sure one's.
    const fieldOf = (tag: string) =>
      part.locator('.field').filter({ has: page.getByLabel(tag, { exact: true }) });
    assert.match((await fieldOf('total').getAttribute('class')) ?? '', /\bflagged\b/);
    assert.doesNotMatch((await fieldOf('invoiceNo').getAttribute('class')) ?? '', /\bflagged\b/);

    // Listed: the values below the threshold, each a way to the value.
    const listed = await checking.getByRole('button').allInnerTexts();
    assert.deepEqual(
      [...listed].sort(),
      [...below].sort(),
      'exactly the values below the threshold are listed',
    );
    assert.ok(!listed.includes('invoiceNo'));
    await checking.getByRole('button', { name: 'total', exact: true }).click();
    const total = part.getByLabel('total', { exact: true });
    assert.ok(await total.evaluate(isFocused), 'the button takes the focus to the value');
    await part.getByRole('img', { name: 'Where the value in focus was read' }).waitFor();
  }

  it('desktop: the form\u2019s validator, no admin, sees each value marked by the form\u2019s threshold, the low one flagged and listed; axe finds nothing', async () => {
    const { id, confidence } = await recognised('checked');
    const page = await suite.signedIn(valerie, { bypassCSP: true });
    await page.goto(`${suite.target.baseUrl}/console#/doc/${id}`);
    await checkMarks(
      page,
      confidence,
      FORM_THRESHOLD,
      /below 80, the form's threshold for automatic validation/,
    );
    await suite.shot(page, 'recognition-confidence-1280');
    assert.deepEqual(await seriousViolations(page, 'recognition-confidence-1280'), []);
    await page.context().close();
  });

  it('375 px: a form with no threshold is marked by the console\u2019s default, nothing wider than the screen', async () => {
    const { id, confidence } = await recognised('unchecked');
    const page = await suite.signedIn('', { bypassCSP: true, viewport: { width: 375, height: 812 } });
    await page.goto(`${suite.target.baseUrl}/console#/doc/${id}`);
    await checkMarks(page, confidence, DEFAULT_THRESHOLD, /below 90, the console's default/);
    assert.ok((await page.evaluate<number>(PAGE_WIDTH)) <= 375, 'no horizontal overflow');
    await suite.shot(page, 'recognition-confidence-375');
    assert.deepEqual(await seriousViolations(page, 'recognition-confidence-375'), []);
    await page.context().close();
  });

  it('a value read from the correction memory says so beside its mark', async () => {
    const first = await recognised('invoice', quillfeatherInvoice('QF-88412', '17.08.2026'));
    const validated = await suite.api('PUT', `/api/v2/docForm/${first.docId}/recoData/${first.part._id}`, {
      key: suite.target.adminKey,
      body: { valuesByTags: { ...first.part.valuesByTags, invoiceNo: 'QF-88412' } },
    });
    assert.equal(validated.status, 200, validated.text);
    await eventually(
      () =>
        suite.api('GET', '/api/admin/v1/forms/invoice/recognition-memory', { key: suite.target.adminKey }),
      (r) => r.status === 200 && r.body.suppliers[0]?.places?.invoiceNo !== undefined,
      RECOGNITION_WAIT_MS,
    );
    const second = await recognised('invoice', quillfeatherInvoice('QF-90017', '31.08.2026'));
    assert.equal(second.part.fieldsByTags.invoiceNo?.source, 'memory', JSON.stringify(second.part));

    const page = await suite.signedIn('', { bypassCSP: true });
    await page.goto(`${suite.target.baseUrl}/console#/doc/${second.id}`);
    const part = page.getByRole('article', { name: /Part 1:/ });
    await part.locator('.confidence').first().waitFor();
    const text = async (tag: string) =>
      ((await (await markOf(part, tag)).textContent()) ?? '').replace(/\s+/g, ' ').trim();
    assert.match(await text('invoiceNo'), /^Recognition confidence: \w+ \d+ from memory$/);
    assert.doesNotMatch(await text('total'), /from memory/, 'what the form read says nothing of memory');
    await page.context().close();
  });
});
