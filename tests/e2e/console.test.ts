/**
 * The web console in a real browser: Debian's Chromium driven by playwright-core (no browser download;
 * `infra/local/install-chromium.sh`, which the test command runs, installs it) against a fresh embedded
 * instance. Each flow ends with a screenshot of its last screen under `.artifacts/e2e/`.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { drawPageEncoded } from '@docflow/recognition';
import type { Locator, Page } from 'playwright-core';
import { chromiumSkipReason, SHOTS } from '../support/chromium';
import { consoleSuite } from '../support/console-suite';
import { createDoc, createPerson, eventually } from '../support/documents';

/** The text as rendered (line breaks between blocks), which the checks below match against. */
// biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator, not a DOM node
const textOf = (locator: Locator) => locator.innerText();
const skip = chromiumSkipReason();
if (skip) console.log(`# web console tests skipped: ${skip}`);

const INVOICE = [
  { text: 'INVOICE', size: 28 },
  { text: 'ACME GmbH, Hauptstrasse 1, 10115 Berlin' },
  { text: 'Invoice No. INV-2026-042' },
  { text: 'Total: 980.00' },
];

const memoForm = {
  name: 'e2e-memo',
  title: 'Browser test memo',
  formsystype: 9,
  tags: { subject: 'string', amount: 'string' },
  titleField: 'subject',
  workflow: {
    approval: { stages: [{ participants: ['bob@example.com'] }], next: 'sign' },
    sign: { stages: [{ participants: ['carol@example.com'] }] },
    dueDays: 3,
  },
};

describe('web console in Chromium', { skip, timeout: 300_000 }, () => {
  const suite = consoleSuite();
  let portalKey: string; // a service account without roles: people act through it with svc-run-as
  let auditorKey: string;
  let memoId: string;
  let invoiceId: string;

  before(async () => {
    const admin = suite.target.adminKey;
    // Recognition runs while the other flows do.
    const invoice = await createDoc(suite.target.baseUrl, admin, 'invoice', {
      docForm: {},
      files: [{ name: 'invoice.png', content: await drawPageEncoded(INVOICE, 'png'), type: 'image/png' }],
    });
    assert.equal(invoice.status, 201, invoice.text);
    invoiceId = invoice.body._id;

    for (const name of ['alice', 'bob', 'carol']) await createPerson(suite.api, admin, `${name}@example.com`);
    const service = (email: string, roles: string[]) =>
      suite
        .api('POST', '/api/admin/v1/accounts', {
          key: admin,
          body: { kind: 'service', email, name_first: 'Svc', name_last: email.split('@')[0], roles },
        })
        .then((r) => r.body.apiKey as string);
    portalKey = await service('portal@example.com', []);
    auditorKey = await service('auditor@example.com', ['svcAuditR']);
    assert.equal(
      (await suite.api('PUT', '/api/admin/v1/forms/e2e-memo', { key: admin, body: memoForm })).status,
      201,
    );
    const memo = await createDoc(
      suite.target.baseUrl,
      portalKey,
      'e2e-memo',
      {
        docForm: { valuesByTags: { subject: 'New laptops', amount: '2400' }, _tags: ['it'] },
        docResponse: { taskstatus: 100 },
        files: [{ name: 'quote.txt', content: 'three laptops', type: 'text/plain' }],
      },
      { runAs: 'alice@example.com' },
    );
    assert.equal(memo.status, 201, memo.text);
    assert.ok(!memo.headers.get('x-error'), memo.headers.get('x-error') ?? '');
    memoId = memo.body._id_web;
  });

  /**
   * Holds the page's requests to URLs matching `pattern` until `release`, which first waits for one to
   * be made (later ones go through at once): a response that arrives late, whatever the machine's load.
   */
  async function holdResponses(page: Page, pattern: RegExp) {
    let open = () => {};
    const released = new Promise<void>((resolve) => {
      open = resolve;
    });
    const made = page.waitForRequest(pattern);
    await page.route(pattern, async (route) => {
      await released;
      await route.continue();
    });
    return {
      release: async () => {
        await made;
        open();
      },
    };
  }

  it('a wrong key is refused with the problem\u2019s title, not a blank page', async () => {
    const page = await suite.browser.newPage();
    await page.goto(`${suite.target.baseUrl}/console`);
    const form = page.getByRole('form', { name: 'Sign in with an API key' });
    await form.getByLabel('API key').fill('not-a-key');
    await form.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await textOf(alert), /Unauthorized|401/);
    await suite.shot(page, '0-sign-in-refused');
    await page.close();
  });

  it('an approver answers a task from the inbox', async () => {
    const page = await suite.signedIn('bob@example.com', {}, portalKey);
    const row = page.getByRole('row').filter({ hasText: memoId });
    await row.waitFor();
    assert.match(await textOf(row), /New laptops/);
    assert.match(await textOf(row), /approval/);
    await page.screenshot({ path: join(SHOTS, '1-approver-inbox.png'), fullPage: true });
    await row.getByRole('link', { name: 'New laptops' }).click();
    const task = page.getByRole('region', { name: 'Your task' });
    await task.waitFor();
    await task.getByLabel('Comment').fill('Within budget.');
    await task.getByRole('button', { name: 'Approve', exact: true }).click();
    const notice = page.getByRole('status').filter({ hasText: 'Approve: done' });
    await notice.waitFor();
    assert.match(await textOf(notice), /now in sign, in progress/);
    await page.getByText('No open task of yours on this document.').waitFor();
    await suite.shot(page, '1-approver-answered');
    const read = await suite.api('GET', `/api/v2/docForm/${memoId}`, { key: suite.target.adminKey });
    assert.deepEqual([read.body.state, read.body.status], [2, 2], 'the document moved to the sign phase');
    await page.context().close();
  });

  it('the author sees the new state', async () => {
    const page = await suite.signedIn('alice@example.com', {}, portalKey);
    await page.getByRole('link', { name: 'Views' }).click();
    const row = page.getByRole('row').filter({ hasText: memoId });
    await row.waitFor();
    assert.match(await textOf(row), /sign · stage 1/);
    await row.getByRole('link', { name: 'New laptops' }).click();
    const workflow = page.getByRole('region', { name: 'Workflow', exact: true });
    await workflow.waitFor();
    await page.getByRole('heading', { level: 1, name: /^New laptops/ }).waitFor();
    const facts = await textOf(workflow);
    assert.match(facts, /Phase\s+sign/);
    assert.match(facts, /Status\s+in progress/);
    const files = page.getByRole('region', { name: 'Attachments' });
    assert.match(await textOf(files), /quote\.txt/);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      files.getByRole('button', { name: /Download/ }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'quote.txt');
    await suite.shot(page, '2-author-sees-new-state');
    await page.context().close();
  });

  it('an auditor opens the history and a past revision', async () => {
    const page = await suite.signedIn('', {}, auditorKey);
    await page.getByLabel('Document id').fill(memoId);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('link', { name: 'History' }).click();
    const timeline = page.getByRole('region', { name: /revisions/ });
    await timeline.waitFor();
    await page.getByRole('heading', { level: 1, name: 'History · New laptops' }).waitFor();
    const text = await textOf(timeline);
    assert.match(text, /Svc portal on behalf of alice Test created the document/);
    assert.match(
      text,
      /Svc portal on behalf of bob Test approved with the comment 'Within budget\.'\. Phase: approval → sign/,
      'who answered, for whom, in words',
    );
    // The raw changes are one click away, and the longest table (revision 1's) stays inside its card.
    const first = timeline.getByRole('listitem').first();
    const table = first.getByRole('table', { name: 'Changes of revision 1' });
    assert.equal(await table.isVisible(), false, 'the raw changes are folded');
    await first.getByText(/\d+ changes/).click();
    await table.waitFor();
    const [inner, card] = await Promise.all([table.boundingBox(), timeline.boundingBox()]);
    assert.ok(inner && card && inner.x + inner.width <= card.x + card.width, 'the table fits its card');
    await page.getByRole('link', { name: 'View the document at revision 1' }).click();
    const revision = page.getByRole('region', { name: 'The document at revision 1' });
    await revision.getByText('New laptops').waitFor();
    const shown = await textOf(revision);
    assert.match(shown, /Phase\s+registration/);
    assert.match(shown, /Status\s+draft/);
    await suite.shot(page, '3-auditor-history-and-revision');
    await page.context().close();
  });

  it('a signer signs with edits', async () => {
    const page = await suite.signedIn('carol@example.com', {}, portalKey);
    await page.getByRole('link', { name: 'New laptops' }).click();
    const task = page.getByRole('region', { name: 'Your task' });
    await task.getByText('Edit fields and tags').click();
    await task.getByLabel('amount').fill('2350');
    await task.getByRole('button', { name: 'Sign with edits' }).click();
    await page.getByRole('status').filter({ hasText: 'Sign with edits: done' }).waitFor();
    await page.getByRole('region', { name: 'Fields' }).getByText('2350').waitFor();
    const tasks = page.getByRole('table', { name: 'Tasks of this document' });
    await tasks.getByText('signed').waitFor();
    const lines = await textOf(tasks);
    // Phase, assignee, due (the phase's due date: the form's dueDays), outcome.
    const due = String.raw`(?:no due date|\S.*\))`;
    assert.match(
      lines,
      new RegExp(String.raw`approval · it\. 1 · stage 1\s+bob Test\s+${due}\s+approved\s+Within budget\.`),
    );
    assert.match(lines, new RegExp(String.raw`sign · it\. 1 · stage 1\s+carol Test\s+${due}\s+signed`));
    await suite.shot(page, '6-signer-signs-with-edits');
    const read = await suite.api('GET', `/api/v2/docForm/${memoId}`, { key: suite.target.adminKey });
    assert.deepEqual([read.body.state, read.body.status], [2, 4], 'the sign phase is completed');
    assert.equal(read.body.valuesByTags.amount, '2350');
    await page.context().close();
  });

  it('an author creates a document with a file and finds it in a filtered view', async () => {
    const page = await suite.signedIn('alice@example.com', {}, portalKey);
    await page.getByRole('link', { name: 'New document' }).click();
    await page.getByLabel('Form', { exact: true }).selectOption('e2e-memo');
    const form = page.getByRole('form', { name: 'New document' });
    await form.getByLabel('subject', { exact: true }).fill('Office chairs');
    await form.getByLabel('Workflow').selectOption({ label: 'Start approval' });
    await form.getByLabel('Files', { exact: true }).setInputFiles({
      name: 'offer.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('twelve chairs'),
    });
    await form.getByRole('button', { name: 'Create' }).click();
    const created = page.getByRole('status').filter({ hasText: 'Created' });
    await created.waitFor();
    const newId = (await textOf(created.getByRole('link'))).trim();
    const read = await suite.api('GET', `/api/v2/docForm/${newId}`, { key: suite.target.adminKey });
    assert.deepEqual([read.body.state, read.body.valuesByTags.subject], [1, 'Office chairs']);
    assert.deepEqual(
      read.body.filesList.map((f: any) => f.fileName),
      ['offer.txt'],
    );
    // The views follow the events after the answer, and the page lists once: under load it could
    // list before they held the new document.
    const listed = await eventually(
      () =>
        suite.api('GET', '/api/v2/docForm/view/mydocs?state=1', {
          key: portalKey,
          runAs: 'alice@example.com',
        }),
      (r) => r.status === 200 && r.body.some((d: any) => [d._id, d._id_web].includes(newId)),
      60_000,
    );
    assert.ok(
      listed.body.some((d: any) => [d._id, d._id_web].includes(newId)),
      `not in alice's approval documents: ${listed.text}`,
    );
    // The unfiltered list arrives only after the author chose a phase, and the page re-renders then:
    // the choice must survive that (a controlled select was set back to "any", and Show listed all).
    const unfiltered = await holdResponses(
      page,
      /\/api\/v2\/docForm\/view\/mydocs\?first=0&pageSize=10&embed=names$/,
    );
    await page.getByRole('link', { name: 'Views' }).click();
    const filters = page.getByRole('form', { name: 'View and filters' });
    await filters.getByLabel('Phase').selectOption({ label: 'approval' });
    await unfiltered.release();
    await page.getByText('Documents 1–2 of 2').waitFor();
    assert.equal(await filters.getByLabel('Phase').inputValue(), '1', 'the chosen phase is kept');
    await filters.getByRole('button', { name: 'Show' }).click();
    await page.getByText('Documents 1–1 of 1').waitFor();
    const rows = page.getByRole('row').filter({ hasText: 'Office chairs' });
    await rows.waitFor();
    assert.equal(
      await page.getByRole('row').filter({ hasText: memoId }).count(),
      0,
      'a signed one is filtered out',
    );
    await suite.shot(page, '7-author-creates-and-filters');
    await page.context().close();
  });

  it('a recognised invoice is checked and validated', async () => {
    const done = await eventually(
      () => suite.api('GET', `/api/v2/docForm/${invoiceId}`, { key: suite.target.adminKey }),
      (r) => r.body.recoStatus !== 'pending',
      120_000,
    );
    assert.equal(done.body.recoStatus, 'done', done.text);
    const page = await suite.signedIn();
    // The author is a service account: named by the read (embed=names), not asked of the person directory.
    const personReads: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v2/person/')) personReads.push(r.url());
    });
    await page.goto(`${suite.target.baseUrl}/console#/doc/${invoiceId}`);
    const part = page.getByRole('article', { name: /Part 1: Invoice/ });
    await part.waitFor();
    assert.match(
      await textOf(page.getByRole('region', { name: 'Workflow', exact: true })),
      /Author\s+docflow admin/,
    );
    assert.deepEqual(personReads, []);
    const facts = await textOf(part);
    assert.match(facts, /Pages\s+page 1/);
    assert.match(facts, /not validated/);
    assert.match(facts, /Confidence\s+\d+(\.\d)? %/);
    assert.equal(await part.getByLabel('invoiceNo').inputValue(), 'INV-2026-042');
    await part.getByLabel('total').fill('980.00 EUR');
    await part.getByRole('button', { name: 'Validate' }).click();
    await page.getByRole('status').filter({ hasText: 'Part 1 (Invoice) validated' }).waitFor();
    await part.getByText('validated', { exact: true }).waitFor();
    await suite.shot(page, '4-invoice-validated');
    const read = await suite.api('GET', `/api/v2/docForm/${invoiceId}?embed=recoData`, {
      key: suite.target.adminKey,
    });
    assert.equal(read.body.recoData[0].validated, true);
    assert.equal(read.body.recoData[0].valuesByTags.total, '980.00 EUR');
    await page.context().close();
  });

  it('an admin creates an account, sees its key once and finds it in the list of accounts', async () => {
    const page = await suite.signedIn();
    await page.getByRole('link', { name: 'Accounts' }).click();
    const form = page.getByRole('form', { name: 'New account' });
    assert.ok(await form.getByLabel('Person', { exact: true }).isChecked(), 'a person by default');
    // The list below loads meanwhile; its arrival must not set the choices back (it did, under load).
    await page.getByRole('table', { name: 'Accounts' }).waitFor();
    await form.getByLabel('Service account (gets an API key)').check();
    await form.getByLabel('E-mail').fill('scanner@example.com');
    await form.getByLabel('First name').fill('Scan');
    await form.getByLabel('Last name').fill('Station');
    await form.getByLabel('svcAdminDocsRW').check();
    await form.getByRole('button', { name: 'Create account' }).click();
    const card = page.getByRole('article', { name: 'Account scanner@example.com' });
    const keyBox = card.getByLabel(/API key/);
    await keyBox.waitFor().catch(async (error: Error) => {
      // What the page said instead (a problem shown, or nothing), for whoever reads the failure.
      await page.screenshot({ path: join(SHOTS, 'failed-admin-creates-account.png'), fullPage: true });
      const alerts = await page.getByRole('alert').allInnerTexts();
      throw new Error(`${error.message}\nalerts on the page: ${JSON.stringify(alerts)}`);
    });
    const key = await keyBox.inputValue();
    assert.match(key, /^dfk_/);
    const mine = await suite.api('GET', '/api/v2/docForm/view/mydocs', { key });
    assert.equal(mine.status, 200, 'the key shown works');
    // The list of accounts, service accounts only, shows it with its kind, state and roles.
    const filters = page.getByRole('form', { name: 'Account filters' });
    await filters.getByLabel('Kind').selectOption('service');
    await filters.getByLabel('Per page').selectOption('100');
    await filters.getByRole('button', { name: 'Show' }).click();
    const listed = page
      .getByRole('table', { name: 'Accounts' })
      .getByRole('row')
      .filter({ hasText: 'scanner@example.com' });
    await listed.getByRole('cell', { name: 'svcAdminDocsRW' }).waitFor();
    assert.deepEqual(await listed.getByRole('cell').allInnerTexts(), [
      'Scan Station',
      'scanner@example.com',
      'service',
      'active',
      'svcAdminDocsRW',
      'Open',
    ]);
    const services = await suite.api('GET', '/api/admin/v1/accounts?kind=service', {
      key: suite.target.adminKey,
    });
    const caption = await textOf(page.getByRole('table', { name: 'Accounts' }).locator('caption'));
    assert.match(caption, new RegExp(`of ${services.headers.get('svc-total-count')}$`));
    await card.getByRole('button', { name: 'Deactivate' }).click();
    await card.getByText('inactive', { exact: true }).waitFor();
    await listed.getByRole('cell', { name: 'inactive', exact: true }).waitFor();
    assert.equal(await keyBox.inputValue(), key, 'the key stays on the card until the page is left');
    await suite.shot(page, '5-admin-creates-account');
    const id = (await textOf(card.locator('code').first())).trim();
    const account = await suite.api('GET', `/api/admin/v1/accounts/${id}`, { key: suite.target.adminKey });
    assert.deepEqual([account.body.roles, account.body.active], [['svcAdminDocsRW'], false]);
    await page.context().close();
  });

  it('an admin edits a form and sees a validation error in place', async () => {
    const page = await suite.signedIn();
    await page.getByRole('link', { name: 'Forms' }).click();
    await page.getByLabel('Form name').fill('contract');
    await page.getByRole('button', { name: 'Open', exact: true }).last().click();
    const editor = page.getByLabel('Definition (JSON)');
    await page.getByText(/^Revision \d+, last changed/).waitFor();
    const definition = JSON.parse(await editor.inputValue());
    assert.equal(definition.name, 'contract');
    await editor.fill(JSON.stringify({ ...definition, formsystype: 'three' }, null, 2));
    await page.getByRole('button', { name: 'Save form' }).click();
    const issues = page.locator('#form-json-issues');
    await issues.waitFor();
    assert.match(await textOf(issues), /line \d+: body\.formsystype/);
    assert.equal(await editor.getAttribute('aria-invalid'), 'true');
    await suite.shot(page, '8-admin-form-error-in-place');
    await editor.fill(JSON.stringify({ ...definition, title: 'Contract (edited)' }, null, 2));
    await page.getByRole('button', { name: 'Save form' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved form contract' }).waitFor();
    const form = await suite.api('GET', '/api/admin/v1/forms/contract', { key: suite.target.adminKey });
    assert.equal(form.body.title, 'Contract (edited)');
    await page.context().close();
  });
});
