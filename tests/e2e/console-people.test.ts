/**
 * People by name in the web console (issue 33), in Debian's Chromium driven by playwright-core against
 * a fresh embedded instance: in the Forms page's workflow editor an administrator picks an approval
 * participant by the first letters of her name (saved as her account), and a participant who is
 * nobody's account is shown beside its input; an author then creates a document from the form's own
 * fields, a table filled in its grid, and the approval starts with that participant; the lists
 * (views, the participant's inbox) show the author by name; an account is opened, a deputy set and
 * the run-as person of a key's sign-in picked by name; recognition
 * rules are inputs with a refused pattern shown beside it. At 1280 and
 * 375 px, with screenshots, and axe-core finds no serious or critical violation on these pages.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumSkipReason, seriousViolations } from '../support/chromium';
import { consoleSuite } from '../support/console-suite';

const skip = chromiumSkipReason();

const FORM = {
  name: 'purchase',
  title: 'Purchase request',
  formsystype: 9,
  tags: { subject: 'string', lines: 'table' },
  titleField: 'subject',
};
const PAGE_WIDTH = 'document.documentElement.scrollWidth';
const PEOPLE = [
  ['alice@example.com', 'Alice', 'Author'],
  ['beatrix@example.com', 'Beatrix', 'Approver'],
  ['bert@example.com', 'Bert', 'Other'],
] as const;

describe('web console: people by name', { skip, timeout: 300_000 }, () => {
  const suite = consoleSuite();
  const ids: Record<string, string> = {};

  before(async () => {
    for (const [email, name_first, name_last] of PEOPLE) {
      const res = await suite.api('POST', '/api/admin/v1/accounts', {
        key: suite.target.adminKey,
        body: { kind: 'person', email, name_first, name_last, roles: [] },
      });
      assert.equal(res.status, 201, res.text);
      ids[email] = res.body._id_sys;
    }
    const put = await suite.api('PUT', `/api/admin/v1/forms/${FORM.name}`, {
      key: suite.target.adminKey,
      body: FORM,
    });
    assert.equal(put.status, 201, put.text);
  });

  async function openForm(page: Page) {
    await page.goto(`${suite.target.baseUrl}/console#/admin/forms`);
    await page
      .getByRole('navigation', { name: 'Existing forms' })
      .getByRole('button', { name: `Edit ${FORM.name}`, exact: true })
      .click();
    await page.getByText(/^Revision \d+, last changed/).waitFor();
    return page.getByRole('group', { name: 'Workflow', exact: true });
  }

  it('an administrator picks an approval participant by name; an unknown one is shown at its input', async () => {
    const page = await suite.signedIn();
    const workflow = await openForm(page);
    await workflow.getByRole('button', { name: 'Add the approval phase' }).click();
    const first = workflow.getByLabel('Participant 1 of approval stage 1', { exact: true });
    await first.fill('be');
    const found = workflow.getByRole('list', { name: 'People for Participant 1 of approval stage 1' });
    // Both people whose name starts so, nobody else (not Alice).
    await found.getByRole('button').nth(1).waitFor();
    assert.deepEqual(await found.getByRole('button').allInnerTexts(), [
      'Bert Other <bert@example.com>',
      'Beatrix Approver <beatrix@example.com>',
    ]);
    await first.fill('beat');
    await found.getByRole('button').filter({ hasText: 'Bert' }).waitFor({ state: 'detached' });
    await suite.shot(page, 'people-1-participant-by-name');
    await found.getByRole('button', { name: 'Beatrix Approver <beatrix@example.com>' }).click();
    assert.equal(await first.inputValue(), 'beatrix@example.com');

    // A second participant nobody is: refused when saved, the message beside that input.
    await workflow.getByRole('button', { name: 'Add a participant to approval stage 1' }).click();
    const second = workflow.getByLabel('Participant 2 of approval stage 1', { exact: true });
    await second.fill('nobody@example.com');
    await page.getByRole('button', { name: 'Save form' }).click();
    const error = page.locator('#wf-approval-0-1-error');
    await error.waitFor();
    assert.match((await error.textContent()) ?? '', /no account nobody@example\.com/);
    assert.equal(await second.getAttribute('aria-invalid'), 'true');
    assert.equal(await first.getAttribute('aria-invalid'), null);
    await suite.shot(page, 'people-2-unknown-participant-in-place');
    const unsaved = await suite.api('GET', `/api/admin/v1/forms/${FORM.name}`, {
      key: suite.target.adminKey,
    });
    assert.equal(unsaved.body.workflow, undefined, 'nothing saved');

    await workflow.getByRole('button', { name: 'Remove participant 2 of approval stage 1' }).click();
    await workflow.getByLabel('Days until due (empty: no due date)').fill('5');
    await page.getByRole('button', { name: 'Save form' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Saved form ${FORM.name}` })
      .waitFor();
    const saved = await suite.api('GET', `/api/admin/v1/forms/${FORM.name}`, { key: suite.target.adminKey });
    assert.deepEqual(saved.body.workflow, {
      approval: { stages: [{ participants: [ids['beatrix@example.com']] }] },
      dueDays: 5,
    });

    // Opened again, the saved id is named beside its box.
    const reopened = await openForm(page);
    await reopened.getByText('Beatrix Approver <beatrix@example.com>').waitFor();
    await page.context().close();
  });

  it("an author creates a document from the form's own fields, a table in its grid; lists name the author", async () => {
    const page = await suite.signedIn('alice@example.com');
    await page.goto(`${suite.target.baseUrl}/console#/new`);
    await page.getByLabel('Form', { exact: true }).selectOption(FORM.name);
    const form = page.getByRole('form', { name: 'New document' });
    await form.getByLabel('subject', { exact: true }).fill('Two desks');
    const lines = form.getByRole('group', { name: 'lines', exact: true });
    await lines.getByRole('button', { name: 'Add a row to lines' }).click();
    await lines.getByRole('button', { name: 'Add a column to lines' }).click();
    await lines.getByRole('button', { name: 'Add a row to lines' }).click();
    await lines.getByLabel('lines row 1 column 1', { exact: true }).fill('desk');
    await lines.getByLabel('lines row 1 column 2', { exact: true }).fill('2');
    await lines.getByLabel('lines row 2 column 1', { exact: true }).fill('lamp');
    await lines.getByLabel('lines row 2 column 2', { exact: true }).fill('1');
    await lines.getByRole('button', { name: 'Add a row to lines' }).click(); // left empty: not sent
    await form.getByLabel('Workflow').selectOption('100');
    await suite.shot(page, 'people-3-new-document-table-grid');
    await form.getByRole('button', { name: 'Create' }).click();
    const created = page.getByRole('status').filter({ hasText: 'Created' });
    await created.waitFor();
    assert.doesNotMatch((await created.textContent()) ?? '', /failed/);
    const id = ((await created.getByRole('link').textContent()) ?? '').trim();
    const read = await suite.api('GET', `/api/v2/docForm/${id}?embed=names`, { key: suite.target.adminKey });
    assert.deepEqual(read.body.valuesByTags, {
      subject: 'Two desks',
      lines: [
        ['desk', '2'],
        ['lamp', '1'],
      ],
    });
    assert.equal(read.body.names[ids['beatrix@example.com']!], 'Beatrix Approver', 'the picked approver');

    await page.goto(`${suite.target.baseUrl}/console#/views/mydocs`);
    const row = page.getByRole('row').filter({ hasText: 'Two desks' });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /Alice Author/);
    assert.doesNotMatch((await row.textContent()) ?? '', /usr-/);
    await suite.shot(page, 'people-4-list-author-by-name');
    await page.context().close();

    // The approver's inbox names the author too; a click anywhere on the row opens the document.
    const inbox = await suite.signedIn('beatrix@example.com');
    const task = inbox.getByRole('row').filter({ hasText: 'Two desks' });
    await task.waitFor();
    assert.match((await task.textContent()) ?? '', /Alice Author/);
    await task.getByText('Alice Author').click();
    await inbox.getByRole('heading', { level: 1 }).filter({ hasText: 'Two desks' }).waitFor();
    await inbox.context().close();
  });

  it('the author filter, the account lookup and a deputy take a name', async () => {
    const page = await suite.signedIn();
    await page.goto(`${suite.target.baseUrl}/console#/views/all`);
    const filters = page.getByRole('form', { name: 'View and filters' });
    const author = filters.getByLabel('Author(s): name, e-mail or id');
    await author.fill('ali');
    await filters.getByRole('button', { name: 'Alice Author <alice@example.com>' }).click();
    assert.equal(await author.inputValue(), 'alice@example.com');
    await filters.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(new RegExp(`author=${ids['alice@example.com']}`));
    await page.getByRole('row').filter({ hasText: 'Two desks' }).waitFor();

    await page.goto(`${suite.target.baseUrl}/console#/admin/accounts`);
    const open = page.getByRole('form', { name: 'Open an account' });
    await open.getByLabel('Name, e-mail or account id').fill('Beatrix');
    await open.getByRole('button', { name: 'Open', exact: true }).click();
    const card = page.getByRole('article', { name: 'Account beatrix@example.com' });
    await card.waitFor();

    // Her deputy, picked by name on her card.
    const deputy = card.getByRole('form', { name: 'Deputy of beatrix@example.com' });
    await deputy.getByLabel('Deputy (name, e-mail or id; empty: none)').fill('ber');
    await deputy.getByRole('button', { name: 'Bert Other <bert@example.com>' }).click();
    await deputy.getByLabel('Stands in now').check();
    await deputy.getByRole('button', { name: 'Save deputy' }).click();
    await card.getByRole('status').filter({ hasText: 'Deputy saved.' }).waitFor();
    const person = await suite.api('GET', `/api/v2/person/${ids['beatrix@example.com']}`, {
      key: suite.target.adminKey,
    });
    assert.deepEqual(person.body.deputy, { id: ids['bert@example.com'], enabled: 'true' });
    await card.getByText('Bert Other <bert@example.com>').waitFor();
    await suite.shot(page, 'people-5-account-and-deputy-by-name');
    await page.context().close();
  });

  it('the sign-in form picks the run-as person by name with the key typed', async () => {
    const page = await suite.page();
    await page.goto(`${suite.target.baseUrl}/console`);
    const form = page.getByRole('form', { name: 'Sign in with an API key' });
    await form.getByLabel('API key').fill(suite.target.adminKey);
    await form.getByLabel('Run as (optional)').fill('beat');
    await form.getByRole('button', { name: 'Beatrix Approver <beatrix@example.com>' }).click();
    assert.equal(await form.getByLabel('Run as (optional)').inputValue(), 'beatrix@example.com');
    await form.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Signed in as Beatrix Approver').waitFor();
    await page.context().close();
  });

  it('recognition rules are inputs; a pattern RE2 cannot run is shown beside it', async () => {
    const page = await suite.signedIn();
    await openForm(page);
    const rules = page.getByRole('group', { name: 'Recognition', exact: true });
    await rules.getByRole('button', { name: 'Add a recognition form' }).click();
    await rules.getByLabel('Name of recognition form 1').fill('Purchase request');
    await rules
      .getByLabel('Keywords of recognition form 1 (one a line)')
      .fill('purchase request\nrequested by');
    await rules.getByRole('button', { name: 'Add a field rule to recognition form 1' }).click();
    const pattern = rules.getByLabel('Pattern of subject (its first group is the value)');
    await pattern.fill('Subject:\\s*(?=\\w)(.+)');
    await page.getByRole('button', { name: 'Save form' }).click();
    const error = page.locator('#rf-0-field-0-pattern-error');
    await error.waitFor();
    assert.match((await error.textContent()) ?? '', /not supported by the RE2 engine/);
    assert.equal(await pattern.getAttribute('aria-invalid'), 'true');
    await suite.shot(page, 'people-6-recognition-rule-in-place');

    await pattern.fill('Subject:\\s*(.+)');
    await page.getByRole('button', { name: 'Save form' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Saved form ${FORM.name}` })
      .waitFor();
    const saved = await suite.api('GET', `/api/admin/v1/forms/${FORM.name}`, { key: suite.target.adminKey });
    assert.deepEqual(saved.body.recognition, {
      forms: [
        {
          id: 'form1',
          name: 'Purchase request',
          match: ['purchase request', 'requested by'],
          fields: { subject: 'Subject:\\s*(.+)' },
        },
      ],
    });
    await page.context().close();
  });

  it('at 375 px the workflow editor and the lists fit the page', async () => {
    const page = await suite.signedIn('', { viewport: { width: 375, height: 800 } });
    const workflow = await openForm(page);
    await workflow.getByLabel('Participant 1 of approval stage 1', { exact: true }).fill('be');
    await workflow.getByRole('list', { name: 'People for Participant 1 of approval stage 1' }).waitFor();
    assert.ok((await page.evaluate<number>(PAGE_WIDTH)) <= 375, 'no horizontal overflow in the editor');
    await suite.shot(page, 'people-7-workflow-editor-375');
    await page.goto(`${suite.target.baseUrl}/console#/new`);
    await page.getByLabel('Form', { exact: true }).selectOption(FORM.name);
    const lines = page.getByRole('group', { name: 'lines', exact: true });
    await lines.getByRole('button', { name: 'Add a row to lines' }).click();
    await lines.getByRole('button', { name: 'Add a column to lines' }).click();
    await lines.getByRole('button', { name: 'Add a column to lines' }).click();
    assert.ok((await page.evaluate<number>(PAGE_WIDTH)) <= 375, 'no horizontal overflow with a table grid');
    await suite.shot(page, 'people-8-table-grid-375');
    await page.goto(`${suite.target.baseUrl}/console#/views/all`);
    await page.getByRole('row').filter({ hasText: 'Alice Author' }).waitFor();
    assert.ok((await page.evaluate<number>(PAGE_WIDTH)) <= 375, 'no horizontal overflow in the list');
    await suite.shot(page, 'people-9-list-375');
    await page.context().close();
  });

  it('axe-core finds no serious or critical violation on the forms editor, New document and the list', async () => {
    const found: string[] = [];
    const page = await suite.signedIn('', { bypassCSP: true });
    async function check(name: string) {
      found.push(...(await seriousViolations(page, name)));
    }
    const workflow = await openForm(page);
    await workflow.getByLabel('Participant 1 of approval stage 1', { exact: true }).fill('be');
    await workflow.getByRole('list', { name: 'People for Participant 1 of approval stage 1' }).waitFor();
    await check('forms');
    await page.goto(`${suite.target.baseUrl}/console#/new`);
    await page.getByLabel('Form', { exact: true }).selectOption(FORM.name);
    await page
      .getByRole('group', { name: 'lines', exact: true })
      .getByRole('button', { name: 'Add a row to lines' })
      .click();
    await check('new');
    await page.goto(`${suite.target.baseUrl}/console#/views/all`);
    await page.getByRole('row').filter({ hasText: 'Alice Author' }).waitFor();
    await check('views');
    await page.context().close();
    assert.deepEqual(found, []);
  });
});
