/**
 * Forms in the web console (issue 33), in Debian's Chromium driven by playwright-core against a fresh
 * embedded instance: New document lists the forms of `GET /api/v2/forms` and renders the chosen form's
 * own fields (a string as a text input, a table as a grid of cells), is blank again after Create,
 * asks before the same values make a second document, and shows a refused value beside its input; the
 * Forms page lists the forms of `GET /api/admin/v1/forms` to edit, its name box names the form, and a
 * participant that is nobody's account is shown at its place in the JSON; a form's fields are inputs
 * (a name and a kind each) kept in step with its JSON.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumSkipReason } from '../support/chromium';
import { consoleSuite } from '../support/console-suite';
import { createPerson } from '../support/documents';

const skip = chromiumSkipReason();

const ORDER = {
  name: 'order',
  title: 'Purchase order',
  formsystype: 9,
  tags: { subject: 'string', note: 'string', lines: 'table' },
};
const PAGE_WIDTH = 'document.documentElement.scrollWidth';

describe('web console: forms', { skip, timeout: 300_000 }, () => {
  const suite = consoleSuite();

  before(async () => {
    await createPerson(suite.api, suite.target.adminKey, 'alice@example.com');
    const put = await suite.api('PUT', `/api/admin/v1/forms/${ORDER.name}`, {
      key: suite.target.adminKey,
      body: ORDER,
    });
    assert.equal(put.status, 201, put.text);
  });

  /** Fills a table field's grid (empty before) with `rows`, through its Add buttons and cell inputs. */
  async function fillTable(page: Page, tag: string, rows: string[][]) {
    const table = page.getByRole('group', { name: tag, exact: true });
    for (const _ of rows) await table.getByRole('button', { name: `Add a row to ${tag}` }).click();
    for (const _ of rows[0]!.slice(1))
      await table.getByRole('button', { name: `Add a column to ${tag}` }).click();
    for (const [r, row] of rows.entries())
      for (const [c, cell] of row.entries())
        await table.getByLabel(`${tag} row ${r + 1} column ${c + 1}`, { exact: true }).fill(cell);
  }

  const createdId = async (page: Page, not = '') => {
    const created = page.getByRole('status').filter({ hasText: 'Created' });
    await created.filter({ hasNotText: not || '\u0000' }).waitFor();
    return ((await created.getByRole('link').textContent()) ?? '').trim();
  };

  it("an author creates a document from the form's own fields; the page is blank after; a repeat asks first", async () => {
    const page = await suite.signedIn('alice@example.com');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'New document' }).click();
    const choice = page.getByLabel('Form', { exact: true });
    await choice.locator('option', { hasText: 'Purchase order (order)' }).waitFor({ state: 'attached' });
    await choice.selectOption('order');
    const form = page.getByRole('form', { name: 'New document' });
    const subject = form.getByLabel('subject', { exact: true });
    const lines = form.getByRole('group', { name: 'lines', exact: true });
    assert.equal(await subject.evaluate((el) => el.tagName), 'INPUT');
    assert.equal(await lines.evaluate((el) => el.tagName), 'FIELDSET', 'a table tag is a grid of cells');
    assert.equal(await form.getByLabel('note', { exact: true }).count(), 1);

    await subject.fill('Twelve chairs');
    await fillTable(page, 'lines', [
      ['chair', '12'],
      ['desk', '1'],
    ]);
    await form.getByRole('button', { name: 'Create' }).click();
    const first = await createdId(page);
    const read = await suite.api('GET', `/api/v2/docForm/${first}`, { key: suite.target.adminKey });
    assert.deepEqual(read.body.valuesByTags, {
      subject: 'Twelve chairs',
      lines: [
        ['chair', '12'],
        ['desk', '1'],
      ],
    });
    assert.equal(read.body.form, 'order');
    assert.equal(await subject.inputValue(), '', 'blank after Create');
    assert.equal(await lines.getByRole('textbox').count(), 0, 'no rows after Create');
    await suite.shot(page, 'forms-1-created-from-fields');

    // The same values again: a warning first, and only a second click creates a second document.
    await subject.fill('Twelve chairs');
    await fillTable(page, 'lines', [
      ['chair', '12'],
      ['desk', '1'],
    ]);
    await form.getByRole('button', { name: 'Create' }).click();
    const warning = page.getByRole('alert').filter({ hasText: 'same values as' });
    await warning.waitFor();
    assert.match((await warning.textContent()) ?? '', new RegExp(first));
    await suite.shot(page, 'forms-2-duplicate-warning');
    await form.getByRole('button', { name: 'Create again' }).click();
    const second = await createdId(page, first);
    assert.notEqual(second, first);
    const mine = await suite.api('GET', '/api/v2/docForm/view/all?form=order', {
      key: suite.target.adminKey,
    });
    assert.equal(mine.body.length, 2, 'two documents, made knowingly');
    await page.context().close();
  });

  it('a value the server refuses is shown beside its input', async () => {
    const page = await suite.signedIn('alice@example.com');
    await page.goto(`${suite.target.baseUrl}/console#/new`);
    await page.getByLabel('Form', { exact: true }).selectOption('order');
    const form = page.getByRole('form', { name: 'New document' });
    // The form changes while the page is open: `note` becomes a table, the page still offers text.
    const redefined = await suite.api('PUT', `/api/admin/v1/forms/${ORDER.name}`, {
      key: suite.target.adminKey,
      body: { ...ORDER, tags: { ...ORDER.tags, note: 'table' } },
    });
    assert.equal(redefined.status, 200, redefined.text);
    await form.getByLabel('note', { exact: true }).fill('call first');
    await form.getByRole('button', { name: 'Create' }).click();
    const note = form.getByLabel('note', { exact: true });
    await form.locator('#new-note-error').waitFor();
    assert.equal(await note.getAttribute('aria-invalid'), 'true');
    assert.match((await form.locator('#new-note-error').textContent()) ?? '', /tag note holds a table/);
    assert.equal(await form.getByLabel('subject', { exact: true }).getAttribute('aria-invalid'), null);
    await suite.shot(page, 'forms-3-error-in-place');
    const restored = await suite.api('PUT', `/api/admin/v1/forms/${ORDER.name}`, {
      key: suite.target.adminKey,
      body: ORDER,
    });
    assert.equal(restored.status, 200, restored.text);
    await page.context().close();
  });

  it('at 375 px the form fields fit the page', async () => {
    const page = await suite.signedIn('alice@example.com', { viewport: { width: 375, height: 800 } });
    await page.goto(`${suite.target.baseUrl}/console#/new`);
    await page.getByLabel('Form', { exact: true }).selectOption('order');
    await page.getByRole('form', { name: 'New document' }).getByRole('group', { name: 'lines' }).waitFor();
    assert.ok((await page.evaluate<number>(PAGE_WIDTH)) <= 375, 'no horizontal overflow');
    await suite.shot(page, 'forms-4-new-document-375');
    await page.context().close();
  });

  it('the Forms page lists the forms to edit; its name box names the form; an unknown participant is shown in place', async () => {
    const page = await suite.signedIn();
    await page.goto(`${suite.target.baseUrl}/console#/admin/forms`);
    const existing = page.getByRole('navigation', { name: 'Existing forms' });
    await existing.getByRole('button', { name: 'Edit order' }).click();
    const editor = page.getByLabel('Definition (JSON)');
    await page.getByText(/^Revision \d+, last changed/).waitFor();
    const definition = JSON.parse(await editor.inputValue());
    assert.equal(definition.name, 'order');
    assert.equal(await page.getByLabel('Form name').inputValue(), 'order');

    // A copy under the name in the box, its JSON without `name`.
    const { name: _dropped, ...unnamed } = definition;
    await page.getByLabel('Form name').fill('order-copy');
    await editor.fill(JSON.stringify({ ...unnamed, title: 'Order copy' }, null, 2));
    await page.getByRole('button', { name: 'Save form' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved form order-copy' }).waitFor();
    const copy = await suite.api('GET', '/api/admin/v1/forms/order-copy', { key: suite.target.adminKey });
    assert.deepEqual([copy.status, copy.body.name, copy.body.title], [200, 'order-copy', 'Order copy']);
    await existing.getByRole('button', { name: 'Edit order-copy' }).waitFor();

    // A participant who is nobody's account: 422, shown at its place in the JSON.
    const workflow = { approval: { stages: [{ participants: ['nobody@example.com'] }] } };
    await editor.fill(JSON.stringify({ ...unnamed, title: 'Order copy', workflow }, null, 2));
    await page.getByRole('button', { name: 'Save form' }).click();
    const issues = page.locator('#form-json-issues');
    await issues.waitFor();
    assert.match(
      (await issues.textContent()) ?? '',
      /line \d+: body\.workflow\.approval\.stages\.0\.participants\.0/,
    );
    assert.equal(await editor.getAttribute('aria-invalid'), 'true');
    await suite.shot(page, 'forms-5-editor-participant-in-place');
    const unchanged = await suite.api('GET', '/api/admin/v1/forms/order-copy', {
      key: suite.target.adminKey,
    });
    assert.equal(unchanged.body.workflow, undefined, 'nothing saved');
    await page.context().close();
  });
  it("the Forms page edits a form's fields as inputs, kept in step with the JSON", async () => {
    const page = await suite.signedIn();
    await page.goto(`${suite.target.baseUrl}/console#/admin/forms`);
    await page
      .getByRole('navigation', { name: 'Existing forms' })
      .getByRole('button', { name: 'Edit order-copy' })
      .click();
    const fields = page.getByRole('group', { name: 'Fields' });
    assert.equal(await fields.getByLabel('Name of field 2').inputValue(), 'note');
    assert.equal(await fields.getByLabel('Kind of field 3').inputValue(), 'table');
    await fields.getByRole('button', { name: 'Remove field note' }).click();
    await fields.getByRole('button', { name: 'Add a field' }).click();
    await fields.getByLabel('Name of field 3').fill('total');
    const editor = page.getByLabel('Definition (JSON)');
    assert.deepEqual(JSON.parse(await editor.inputValue()).tags, {
      subject: 'string',
      lines: 'table',
      total: 'string',
    });
    await fields.getByLabel('Kind of field 1').selectOption('table');
    await page.getByRole('button', { name: 'Save form' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved form order-copy' }).waitFor();
    await suite.shot(page, 'forms-6-fields-as-inputs');
    const saved = await suite.api('GET', '/api/admin/v1/forms/order-copy', { key: suite.target.adminKey });
    assert.deepEqual(saved.body.tags, { subject: 'table', lines: 'table', total: 'string' });
    await page.context().close();
  });
});
