/**
 * E-mail notifications over real HTTP and a real SMTP catcher (Mailpit), in every mode (issue 36): a
 * participant gets an e-mail when their task opens, when it is due soon and when it is overdue (the
 * workflow service's clock moved by the test), the escalation contact when it is escalated, each once;
 * a person who opted out (PUT /api/v2/me/notifications) gets none, an erased one none after the
 * erasure; and no stored event holds an address. Each mail names the document by its title and links
 * to its console page under DOCFLOW_PUBLIC_URL.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { createDoc, createPerson, eventually } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { type CaughtMail, mailpit, mailpitSkipReason } from '../support/mailpit';
import { startEmbedded, type Target, targets } from '../support/targets';

const HOUR = 3_600_000;
const WAIT_MS = 60_000;
const dir = mkdtempSync(join(tmpdir(), 'docflow-mail-'));
const clockFile = join(dir, 'clock-offset');
const moveClock = (ms: number) => writeFileSync(clockFile, String(ms));
const mailSkip = mailpitSkipReason();
const smtpUrl = process.env.MAILPIT_SMTP;
const PUBLIC_URL = 'https://docflow.example.com';
const TITLE = 'Harbour crane inspection';

function eventStoresUnder(path: string): string[] {
  return readdirSync(path).flatMap((name) => {
    const file = join(path, name);
    return statSync(file).isDirectory() ? eventStoresUnder(file) : name === 'events.db' ? [file] : [];
  });
}

for (const factory of targets({
  env: {
    DOCFLOW_CLOCK_OFFSET_FILE: clockFile,
    DOCFLOW_SCHEDULER_POLL_MS: '50',
    DOCFLOW_PUBLIC_URL: PUBLIC_URL,
    ...(smtpUrl ? { DOCFLOW_SMTP_URL: smtpUrl } : {}),
  },
})) {
  describe(`e-mail notifications [${factory.name}]`, {
    skip: factory.skip ?? mailSkip,
    timeout: 300_000,
  }, () => {
    let target: Target;
    let api: Api;
    let admin: string;
    let svc: string;
    let docId: string;
    const run = randomBytes(4).toString('hex');
    const email = (name: string) => `${name}-${run}@example.com`;
    const u: Record<string, string> = {};
    const mails = (name: string) => mailpit().messagesTo(email(name));
    const subjects = (list: CaughtMail[]) => list.map((m) => m.Subject).sort();
    const mailsUntil = (name: string, pattern: RegExp) =>
      eventually(
        () => mails(name),
        (list) => list.some((m) => pattern.test(m.Subject)),
        WAIT_MS,
      );

    before(async () => {
      moveClock(0);
      target = await factory.start();
      api = apiClient(target.baseUrl);
      admin = target.adminKey;
      for (const name of ['author', 'bob', 'olga', 'erin', 'carol'])
        u[name] = await createPerson(api, admin, email(name));
      svc = (
        await api('POST', '/api/admin/v1/accounts', {
          key: admin,
          body: { kind: 'service', email: email('portal'), name_first: 'P', name_last: 'S' },
        })
      ).body.apiKey;
      // Participants by `usr-` id: the form itself then holds no address either.
      const form = {
        name: 'mail-deadline',
        title: 'Mail deadline',
        formsystype: 9,
        tags: { subject: 'string' },
        titleField: 'subject',
        workflow: {
          approval: {
            stages: [
              {
                participants: [u.bob, u.olga, u.erin],
                deadline: {
                  within: 'P2D',
                  remindBefore: 'PT4H',
                  escalation: { action: 'notify', contacts: [u.carol] },
                },
              },
            ],
          },
        },
      };
      const res = await api('PUT', `/api/admin/v1/forms/${form.name}`, { key: admin, body: form });
      assert.equal(res.status, 201, res.text);
    });
    after(async () => {
      await target?.stop();
    });

    it('a person turns e-mail off for themselves (PUT /api/v2/me/notifications)', async () => {
      const me = { key: svc, runAs: u.olga };
      assert.deepEqual((await api('GET', '/api/v2/me/notifications', me)).body, { email: true });
      const put = await api('PUT', '/api/v2/me/notifications', { ...me, body: { email: false } });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual((await api('GET', '/api/v2/me/notifications', me)).body, { email: false });
      assert.deepEqual((await api('GET', '/api/v2/me/notifications', { key: svc, runAs: u.bob })).body, {
        email: true,
      });
      const bad = await api('PUT', '/api/v2/me/notifications', { ...me, body: { email: 'no' } });
      assert.equal(bad.status, 400, bad.text);
    });

    it('a new task e-mails its participant, by name, once: the document by its title, with a link to it', async () => {
      const created = await createDoc(
        target.baseUrl,
        svc,
        'mail-deadline',
        { docForm: { valuesByTags: { subject: TITLE } }, docResponse: { taskstatus: 100 } },
        { runAs: u.author },
      );
      assert.equal(created.status, 201, created.text);
      docId = created.body._id;
      assert.equal(created.body.title, TITLE);
      const got = await mailsUntil('bob', /new task/);
      assert.equal(got.length, 1, JSON.stringify(subjects(got)));
      assert.equal(got[0]!.Subject, `docflow: a new task for you on \u201c${TITLE}\u201d`);
      assert.deepEqual(got[0]!.To, [{ Name: 'bob-' + run + ' Test', Address: email('bob') }]);
      const text = await mailpit().textOf(got[0]!.ID);
      assert.ok(text.includes(`\u201c${TITLE}\u201d (document ${docId}, form mail-deadline)`), text);
      assert.ok(text.includes(`${PUBLIC_URL}/console#/doc/${docId}`), text);
    });

    it('an erased participant is e-mailed no more', async () => {
      assert.equal((await mailsUntil('erin', /new task/)).length, 1);
      const erased = await api('POST', `/api/admin/v1/accounts/${u.erin}/erase`, { key: admin });
      assert.equal(erased.status, 200, erased.text);
    });

    it('the reminder and the deadline e-mail the participant, the escalation its contact, each once', async () => {
      moveClock(44 * HOUR + 60_000);
      await mailsUntil('bob', /due soon/);
      moveClock(48 * HOUR + 60_000);
      const carol = await mailsUntil('carol', /escalated to you/);
      assert.deepEqual(subjects(carol), [
        `docflow: an overdue task on \u201c${TITLE}\u201d was escalated to you`,
      ]);
      assert.ok((await mailpit().textOf(carol[0]!.ID)).includes(`${PUBLIC_URL}/console#/doc/${docId}`));
      // The escalation is the last fact e-mailed, in store order: everything before it was sent.
      const bob = await mails('bob');
      assert.deepEqual(
        subjects(bob).map((s) => s.replace(/ on \u201c.*/, '')),
        ['docflow: a new task for you', 'docflow: your task', 'docflow: your task'].sort(),
      );
      assert.deepEqual(
        subjects(bob)
          .filter((s) => /due soon|overdue/.test(s))
          .map((s) => s.match(/due soon|overdue/)![0])
          .sort(),
        ['due soon', 'overdue'],
      );
    });

    it('the person who opted out got no e-mail at all, the erased one none after the erasure', async () => {
      // Her task opened, was due soon and overdue before the escalation was e-mailed (store order).
      assert.equal((await mailsUntil('carol', /escalated to you/)).length, 1);
      assert.deepEqual(await mails('olga'), []);
      // Erin only had the mail of her new task, sent before she was erased.
      assert.deepEqual(
        subjects(await mails('erin')).map((s) => s.replace(/ on \u201c.*/, '')),
        ['docflow: a new task for you'],
      );
    });

    it('no stored event holds an e-mail address', () => {
      const addresses = ['author', 'bob', 'olga', 'erin', 'carol'].map(email);
      const stores = eventStoresUnder(target.dataDir);
      assert.ok(
        stores.some((f) => f.includes('workflow')),
        stores.join('\n'),
      );
      let scanned = 0;
      for (const file of stores) {
        const db = new Database(file, { readonly: true });
        try {
          for (const row of db
            .prepare('SELECT stream_id, type, data, metadata FROM events')
            .iterate() as Iterable<Record<string, string>>) {
            const text = `${row.data} ${row.metadata}`.toLowerCase();
            for (const address of addresses)
              assert.ok(!text.includes(address), `${file}: ${row.stream_id} ${row.type}`);
            scanned++;
          }
        } finally {
          db.close();
        }
      }
      assert.ok(scanned > 20, `${scanned} events scanned`);
      // Nor any log line.
      for (const address of addresses) assert.ok(!target.output().includes(address), 'log');
    });
  });
}

describe('without DOCFLOW_SMTP_URL [embedded]', { timeout: 120_000 }, () => {
  it('sends no e-mail and says so in the log', async () => {
    const target = await startEmbedded();
    try {
      const log = await eventually(
        async () => target.output(),
        (out) => out.includes('e-mail notifications off'),
        WAIT_MS,
      );
      assert.match(log, /e-mail notifications off: DOCFLOW_SMTP_URL is not set/);
    } finally {
      await target.stop();
    }
  });
});

after(() => rmSync(dir, { recursive: true, force: true }));
