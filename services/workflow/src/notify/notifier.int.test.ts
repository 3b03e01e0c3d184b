/**
 * The notifier on the embedded event store and the real Mailpit (MAILPIT_SMTP / MAILPIT_API): each
 * fact is e-mailed once, also across a restart (it resumes after the last fact it handled, and a fact
 * appended while it was down is sent after it) and with two processes on a shared PostgreSQL store
 * (the lease); a person identity no longer gives an address for (erased, opted out) gets nothing; the
 * notifier's own records name people by id only; a mail names the document by its title and links to
 * its console page.
 * Identity and the document service are in-process stand-ins: only their answers matter here.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type WorkflowConfig, workflowStream } from '@docflow/contracts';
import {
  createPostgresEventStore,
  createSqliteEventStore,
  type EventStore,
  type ServiceLease,
} from '@docflow/eventstore';
import { createLogger, newHexId } from '@docflow/kit';
import { executeCommand } from '@docflow/kit/eventsourcing';
import { inProcessClient } from '@docflow/kit/http';
import { eventually } from '../../../../tests/support/documents';
import { mailpit, mailpitSkipReason } from '../../../../tests/support/mailpit';
import { workflowAggregate } from '../aggregate';
import { decideCommand } from '../businessLogic';
import { smtpMailer } from './mailer';
import { NOTIFIER_STREAM, startNotifier } from './notifier';

const usr = (n: number) => `usr-00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const [AUTHOR, ALICE, ERIN] = [usr(1), usr(2), usr(3)];
const run = randomBytes(4).toString('hex');
const log = createLogger('notifier-test', 'silent');

/** A new document whose first stage opens a task for each of `participants`. */
async function openTasks(store: EventStore, participants: string[]): Promise<string> {
  const docId = newHexId();
  const at = new Date().toISOString();
  const workflow: WorkflowConfig = { approval: { stages: [{ participants }] } };
  const ctx = {
    at,
    newId: () => newHexId(),
    participants: {},
    deputiesOf: {},
    principal: { subject: AUTHOR, roles: [], isServiceAccount: false },
  };
  await executeCommand(
    store,
    workflowStream(docId),
    workflowAggregate,
    (s) =>
      decideCommand(
        { docId, form: 'memo', author: AUTHOR, workflow, at },
        { kind: 'create', taskstatus: 100 },
        ctx,
        s,
      ),
    { correlationId: randomUUID(), timestamp: at },
  );
  return docId;
}

interface Proc {
  store: EventStore;
  lease?: ServiceLease;
  close(): Promise<void>;
}

/** The story on any store: `open` gives a notifier process its own store (and lease) on it. */
function scenario(name: string, processes: number, open: () => Proc) {
  return async () => {
    const catcher = mailpit();
    const aliceEmail = `alice-${name}-${run}@example.com`;
    // Alice has an address; Erin has none any more (erased, or opted out).
    const identity = inProcessClient(() =>
      Response.json({ recipients: { [ALICE]: { email: aliceEmail, name: 'Alice Test' } } }),
    );
    const document = inProcessClient((request) => {
      assert.match(new URL(request.url).pathname, /^\/internal\/v1\/documents\/[0-9a-f]{24}\/title$/);
      return Response.json({ title: 'Budget 2027' });
    });
    const procs = Array.from({ length: processes }, open);
    const start = (p: Proc) =>
      startNotifier({
        store: p.store,
        lease: p.lease,
        identity,
        document,
        internalToken: 'test-internal-token-of-at-least-32-chars',
        mailer: smtpMailer(catcher.smtpUrl, 'docflow <docflow@localhost>'),
        publicUrl: 'https://docflow.example.com',
        log,
      });
    const mailsOf = (docId: string) =>
      eventually(
        async () => {
          const mails = await catcher.messagesTo(aliceEmail);
          const texts = await Promise.all(mails.map((m) => catcher.textOf(m.ID)));
          return mails.filter((_, i) => texts[i]!.includes(docId));
        },
        (list) => list.length > 0,
        30_000,
      );
    const [a] = procs as [Proc];
    const notifiers = procs.map(start);
    try {
      const first = await openTasks(a.store, [ALICE, ERIN]);
      const firstMails = await mailsOf(first);
      assert.equal(firstMails.length, 1);
      const mail = firstMails[0]!;
      assert.equal(mail.Subject, 'docflow: a new task for you on \u201cBudget 2027\u201d');
      const text = await catcher.textOf(mail.ID);
      assert.match(text, /A task on \u201cBudget 2027\u201d \(document [0-9a-f]{24}, form memo\), stage 1/);
      assert.ok(text.includes(`https://docflow.example.com/console#/doc/${first}`), text);
      // A fact appended while the (or one) notifier is down is sent; the first is not sent again.
      await notifiers[0]!.stop();
      const second = await openTasks(a.store, [ALICE]);
      // Two processes: the other takes the lease over and sends it; one: the restarted one does.
      if (processes === 1) notifiers[0] = start(a);
      assert.equal((await mailsOf(second)).length, 1);
      if (processes > 1) notifiers[0] = start(a);
      const third = await openTasks(a.store, [ALICE]);
      assert.equal((await mailsOf(third)).length, 1);
      // In store order: once the third is sent, a resent first or second would have arrived.
      assert.equal((await mailsOf(first)).length, 1, 'the first fact was not sent again');
      assert.equal((await mailsOf(second)).length, 1, 'the second fact was not sent again');

      const records = (await a.store.readStream(NOTIFIER_STREAM)).map((e) => e.data);
      const sent = records.filter((r) => 'eventId' in r);
      assert.equal(sent.length, 4, JSON.stringify(records)); // three for Alice, one for Erin
      assert.equal(new Set(sent.map((r) => r.eventId)).size, 4);
      assert.deepEqual(sent.map((r) => r.to).sort(), [[], [ALICE], [ALICE], [ALICE]]);
      assert.ok(!JSON.stringify(records).includes('@'), 'the records hold no address');
    } finally {
      await Promise.all(notifiers.map((n) => n.stop()));
      for (const p of procs) await p.close();
    }
  };
}

describe('e-mail notifier', { skip: mailpitSkipReason(), timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-notifier-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'SQLite: e-mails each fact once across a restart, and nobody identity gives no address for',
    scenario('sqlite', 1, () => {
      const store = createSqliteEventStore({ file: join(dir, 'events.db'), pollIntervalMs: 20 });
      return { store, close: () => store.close() };
    }),
  );

  const url = process.env.POSTGRES_URL;
  const required = process.env.DOCFLOW_ENGINES_REQUIRED === '1';
  const schema = `notify_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  it(
    'PostgreSQL, two processes with the lease: each fact once, also while one is down',
    { skip: url || required ? undefined : 'no PostgreSQL: POSTGRES_URL is not set (.infra/env)' },
    scenario('postgres', 2, () => {
      assert.ok(url, 'DOCFLOW_ENGINES_REQUIRED=1 but POSTGRES_URL is not set');
      const store = createPostgresEventStore({ connectionString: url, schema, pollIntervalMs: 20 });
      return { store, lease: store.serviceLease(600), close: () => store.close() };
    }),
  );
});
