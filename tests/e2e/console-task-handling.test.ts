/**
 * Issue 36 in the web console, in Debian's Chromium against a fresh embedded instance whose workflow
 * clock the test moves (DOCFLOW_CLOCK_OFFSET_FILE): a stage participant reassigns a colleague's open
 * task with a reason (the server's refusal shown beside the form first), and the task table shows the
 * new assignee; a person turns e-mail notifications off and sets an absence with a deputy and a
 * period; a stage deadline's reminder, overdue mark and escalation show on the task and in the
 * history in words. At 1280 and 375 px, with screenshots, and axe-core finds no serious or critical
 * violation on these pages.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumSkipReason, seriousViolations } from '../support/chromium';
import { consoleSuite } from '../support/console-suite';
import { createDoc, eventually } from '../support/documents';

const skip = chromiumSkipReason();
const HOUR = 3_600_000;
const clockFile = join(mkdtempSync(join(tmpdir(), 'docflow-console-clock-')), 'offset');
/** Moves the workflow service's clock to `ms` after the real time. */
const moveClock = (ms: number) => writeFileSync(clockFile, String(ms));
const PAGE_WIDTH = 'document.documentElement.scrollWidth';

const PEOPLE = {
  alice: ['alice@example.com', 'Alice', 'Author'],
  bob: ['bob@example.com', 'Bob', 'Builder'],
  carol: ['carol@example.com', 'Carol', 'Chief'],
  dave: ['dave@example.com', 'Dave', 'Deputy'],
} as const;
type Who = keyof typeof PEOPLE;

/** Bob and Dave approve together; the form with a deadline gives Bob two days, then Carol takes it. */
const FORMS = [
  {
    name: 'handover',
    title: 'Handover',
    formsystype: 9,
    tags: { subject: 'string' },
    titleField: 'subject',
    workflow: { approval: { stages: [{ participants: ['bob@example.com', 'dave@example.com'] }] } },
  },
  {
    name: 'deadline',
    title: 'Deadline',
    formsystype: 9,
    tags: { subject: 'string' },
    titleField: 'subject',
    workflow: {
      approval: {
        stages: [
          {
            participants: ['bob@example.com'],
            deadline: {
              within: 'P2D',
              remindBefore: 'PT4H',
              escalation: { action: 'reassign', contacts: ['carol@example.com'] },
            },
          },
        ],
      },
    },
  },
];

describe('web console: reassignment, own settings, deadlines', { skip, timeout: 400_000 }, () => {
  moveClock(0);
  const suite = consoleSuite({
    env: { DOCFLOW_CLOCK_OFFSET_FILE: clockFile, DOCFLOW_SCHEDULER_POLL_MS: '50' },
  });
  const ids = {} as Record<Who, string>;
  const docs: Record<string, string> = {};

  const newDoc = async (form: string, subject: string) => {
    const created = await createDoc(
      suite.target.baseUrl,
      suite.target.adminKey,
      form,
      { docForm: { valuesByTags: { subject } }, docResponse: { taskstatus: 100 } },
      { runAs: ids.alice },
    );
    assert.equal(created.status, 201, created.text);
    return created.body._id as string;
  };
  const summaries = async (id: string): Promise<string[]> =>
    (await suite.api('GET', `/api/v2/docForm/${id}/history`, { key: suite.target.adminKey })).body.map(
      (e: { summary: string }) => e.summary,
    );
  const openDoc = async (page: Page, id: string) => {
    await page.goto(`${suite.target.baseUrl}/console#/doc/${id}`);
    const tasks = page.getByRole('table', { name: 'Tasks of this document' });
    await tasks.waitFor();
    return tasks;
  };

  before(async () => {
    for (const [who, [email, name_first, name_last]] of Object.entries(PEOPLE)) {
      const res = await suite.api('POST', '/api/admin/v1/accounts', {
        key: suite.target.adminKey,
        body: { kind: 'person', email, name_first, name_last, roles: [] },
      });
      assert.equal(res.status, 201, res.text);
      ids[who as Who] = res.body._id_sys;
    }
    for (const form of FORMS) {
      const put = await suite.api('PUT', `/api/admin/v1/forms/${form.name}`, {
        key: suite.target.adminKey,
        body: form,
      });
      assert.equal(put.status, 201, put.text);
    }
    docs.handover = await newDoc('handover', 'Hand me over');
  });

  it("a stage participant reassigns a colleague's task with a reason; a refusal shows beside the form", async () => {
    const page = await suite.signedIn('dave@example.com');
    const tasks = await openDoc(page, docs.handover!);
    const bobs = tasks.getByRole('row').filter({ hasText: 'Bob Builder' });
    await bobs.getByRole('button', { name: 'Reassign Bob Builder’s task' }).click();
    const form = page.getByRole('form', { name: 'Reassign Bob Builder’s task' });
    const to = form.getByLabel('Hand Bob Builder’s task to (name, e-mail or id)');
    const reason = form.getByLabel('Reason');

    // Dave has a task of this stage already: the server refuses, and says so in the form.
    await to.fill('dave@example.com');
    await reason.fill('On holiday');
    await form.getByRole('button', { name: 'Reassign' }).click();
    const refusal = form.getByRole('alert');
    await refusal.waitFor();
    assert.match((await refusal.textContent()) ?? '', /has a task of this stage already/);
    await suite.shot(page, 'task-handling-1-reassign-refused');

    await to.fill('carol@example.com');
    await form.getByRole('button', { name: 'Reassign' }).click();
    await page.getByRole('status').filter({ hasText: 'was handed to carol@example.com' }).waitFor();
    await form.waitFor({ state: 'detached' });
    const handed = tasks.getByRole('row').filter({ hasText: 'handed over: On holiday' });
    await handed.waitFor();
    assert.match((await handed.textContent()) ?? '', /Bob Builder → Carol Chief/);
    const carols = tasks.getByRole('row').filter({ hasText: /^approval.*Carol Chief.*open/ });
    await carols.waitFor();
    await suite.shot(page, 'task-handling-2-reassigned');

    const read = await suite.api('GET', `/api/v2/docForm/${docs.handover}?embed=docResponse`, {
      key: suite.target.adminKey,
      runAs: ids.carol,
    });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.docResponse?.assignee, ids.carol, "Carol's task is open");
    await page.context().close();
  });

  it('a person turns e-mail notifications off and sets an absence with a deputy and a period', async () => {
    const page = await suite.signedIn('bob@example.com');
    await page.getByRole('link', { name: 'Your settings' }).click();
    await page.getByRole('heading', { name: 'Your settings', level: 1 }).waitFor();
    const notifications = page.getByRole('region', { name: 'E-mail notifications' });
    const email = notifications.getByRole('checkbox');
    await email.waitFor();
    assert.equal(await email.isChecked(), true, 'on until the person chooses');
    await email.uncheck();
    await notifications.getByRole('status').filter({ hasText: 'E-mail notifications are off.' }).waitFor();
    const settings = await suite.api('GET', '/api/v2/me/notifications', {
      key: suite.target.adminKey,
      runAs: ids.bob,
    });
    assert.deepEqual(settings.body, { email: false });

    const absence = page.getByRole('region', { name: 'Out of office' });
    await absence.getByText('No absence set.').waitFor();
    const form = absence.getByRole('form', { name: 'Absence' });
    // Bob may not look people up by name (no administrator): the refusal says what to give instead.
    await form.getByLabel('Deputy (name, e-mail or id)').fill('Dave');
    const local = (ms: number) => {
      const d = new Date(Date.now() + ms);
      return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    };
    await form.getByLabel(/^From/).fill(local(-HOUR));
    await form.getByLabel(/^To/).fill(local(24 * HOUR));
    await form.getByRole('button', { name: 'Save absence' }).click();
    await form.getByRole('alert').filter({ hasText: 'give your deputy’s e-mail or usr- id' }).waitFor();

    // An e-mail he may give: the server takes it as the person's id.
    await form.getByLabel('Deputy (name, e-mail or id)').fill('dave@example.com');
    await form.getByRole('button', { name: 'Save absence' }).click();
    await absence.getByText(/You are away from .* tasks arriving then go to Dave Deputy\./).waitFor();
    const person = await suite.api('GET', `/api/v2/person/${ids.bob}`, { key: suite.target.adminKey });
    assert.equal(person.body.deputy.id, ids.dave);
    assert.equal(person.body.deputy.enabled, 'true');
    assert.ok(Date.parse(person.body.deputy.from) < Date.now(), 'from: an hour ago');
    assert.ok(Date.parse(person.body.deputy.to) > Date.now() + 23 * HOUR, 'to: tomorrow');
    await suite.shot(page, 'task-handling-3-own-settings');

    // Ended now: the deputy takes no more of Bob's new tasks.
    await absence.getByRole('button', { name: 'End it now' }).click();
    await absence.getByText(/Your last absence from .*\(ended\)\./).waitFor();
    const ended = await suite.api('GET', `/api/v2/person/${ids.bob}`, { key: suite.target.adminKey });
    assert.ok(Date.parse(ended.body.deputy.to) <= Date.now(), 'the period is over');
    await page.context().close();
  });

  it("a stage deadline's reminder, overdue mark and escalation show on the task and in the history", async () => {
    docs.deadline = await newDoc('deadline', 'Answer in two days');
    moveClock(45 * HOUR); // past the reminder, four hours before the deadline
    await eventually(
      () => summaries(docs.deadline!),
      (s) => s.some((line) => line.startsWith('Reminder:')),
      60_000,
    );
    moveClock(49 * HOUR); // past the deadline: Carol gets the task
    const told = await eventually(
      () => summaries(docs.deadline!),
      (s) => s.some((line) => /reassigned to Carol Chief/.test(line)),
      60_000,
    );
    assert.ok(
      told.some((line) => /reassigned to Carol Chief/.test(line)),
      told.join('\n'),
    );

    const page = await suite.signedIn();
    const tasks = await openDoc(page, docs.deadline);
    const bobs = tasks.getByRole('row').filter({ hasText: 'Bob Builder' });
    await bobs.getByText('Overdue', { exact: true }).waitFor();
    const bobsText = (await bobs.textContent()) ?? '';
    assert.match(bobsText, /Reminded /);
    assert.match(bobsText, /cancelled \(escalated\)/);
    assert.match(bobsText, /reassigned to Carol Chief/);
    const carols = tasks.getByRole('row').filter({ hasText: 'Carol Chief' }).filter({ hasText: 'open' });
    await carols.waitFor();
    await suite.shot(page, 'task-handling-4-deadline-on-tasks');

    await page.getByRole('link', { name: 'History' }).click();
    const timeline = page.getByRole('region', { name: /revisions$/ });
    await timeline.getByText(/^Reminder: 1 open task of step 1 due by/).waitFor();
    await timeline.getByText(/1 open task of step 1 overdue since/).waitFor();
    await timeline.getByText(/1 open task reassigned to Carol Chief \(no answer by the deadline/).waitFor();
    await suite.shot(page, 'task-handling-5-deadline-in-history');
    await page.context().close();
  });

  it('at 375 px the task table, the reassign form and the settings fit the page', async () => {
    const page = await suite.signedIn('carol@example.com', { viewport: { width: 375, height: 800 } });
    const tasks = await openDoc(page, docs.deadline!);
    await tasks.getByRole('button', { name: 'Reassign Carol Chief’s task' }).click();
    await page.getByRole('form', { name: 'Reassign Carol Chief’s task' }).waitFor();
    assert.ok((await page.evaluate<number>(PAGE_WIDTH)) <= 375, 'no horizontal overflow on the document');
    await suite.shot(page, 'task-handling-6-document-375');
    await page.getByRole('link', { name: 'Your settings' }).click();
    await page.getByRole('form', { name: 'Absence' }).waitFor();
    assert.ok((await page.evaluate<number>(PAGE_WIDTH)) <= 375, 'no horizontal overflow in the settings');
    await suite.shot(page, 'task-handling-7-settings-375');
    await page.context().close();
  });

  it('axe-core finds no serious or critical violation on the document with its tasks and the settings', async () => {
    const found: string[] = [];
    const page = await suite.signedIn('carol@example.com', { bypassCSP: true });
    const tasks = await openDoc(page, docs.deadline!);
    await tasks.getByText('Overdue', { exact: true }).waitFor();
    await tasks.getByRole('button', { name: 'Reassign Carol Chief’s task' }).click();
    await page.getByRole('form', { name: 'Reassign Carol Chief’s task' }).waitFor();
    found.push(...(await seriousViolations(page, 'document')));
    await page.getByRole('link', { name: 'Your settings' }).click();
    await page.getByRole('form', { name: 'Absence' }).waitFor();
    found.push(...(await seriousViolations(page, 'settings')));
    await page.context().close();
    assert.deepEqual(found, []);
  });
});
