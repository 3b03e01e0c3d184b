/**
 * The notifier on the embedded event store and the real Mailpit (MAILPIT_SMTP / MAILPIT_API): each
 * fact is e-mailed once, also across a restart (it resumes after the last fact it handled, and a fact
 * appended while it was down is sent after it); a person identity no longer gives an address for
 * (erased, opted out) gets nothing; the notifier's own records name people by id only.
 * Identity is the in-process stand-in the workflow tests use: only its answer matters here.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type WorkflowConfig, workflowStream } from '@docflow/contracts';
import { createSqliteEventStore, type EventStore } from '@docflow/eventstore';
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
const ALICE_EMAIL = `alice-${run}@example.com`;

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

describe('e-mail notifier', { skip: mailpitSkipReason(), timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-notifier-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('e-mails each fact once across a restart, and nobody identity gives no address for', async () => {
    const catcher = mailpit();
    const store = createSqliteEventStore({ file: join(dir, 'events.db') });
    // Alice has an address; Erin has none any more (erased, or opted out).
    const identity = inProcessClient(() =>
      Response.json({ recipients: { [ALICE]: { email: ALICE_EMAIL, name: 'Alice Test' } } }),
    );
    const start = () =>
      startNotifier({
        store,
        identity,
        internalToken: 'test-internal-token-of-at-least-32-chars',
        mailer: smtpMailer(catcher.smtpUrl, 'docflow <docflow@localhost>'),
        log: createLogger('notifier-test', 'silent'),
      });
    const mailsOf = (docId: string) =>
      eventually(
        async () => (await catcher.messagesTo(ALICE_EMAIL)).filter((m) => m.Subject.includes(docId)),
        (list) => list.length > 0,
        30_000,
      );
    const recorded = async () => (await store.readStream(NOTIFIER_STREAM)).map((e) => e.data);
    try {
      let notifier = start();
      const first = await openTasks(store, [ALICE, ERIN]);
      assert.equal((await mailsOf(first)).length, 1);
      await notifier.stop();
      // A fact appended while the notifier is down is sent after the restart; the first is not resent.
      const second = await openTasks(store, [ALICE]);
      notifier = start();
      assert.equal((await mailsOf(second)).length, 1);
      const third = await openTasks(store, [ALICE]);
      assert.equal((await mailsOf(third)).length, 1);
      assert.equal((await mailsOf(first)).length, 1, 'the first fact was not sent again');
      assert.equal((await mailsOf(second)).length, 1, 'the second fact was not sent again');
      await notifier.stop();

      const records = await recorded();
      const sent = records.filter((r) => 'eventId' in r);
      assert.equal(sent.length, 4, JSON.stringify(records)); // three for Alice, one for Erin
      assert.equal(new Set(sent.map((r) => r.eventId)).size, 4);
      assert.deepEqual(sent.map((r) => r.to).sort(), [[], [ALICE], [ALICE], [ALICE]]);
      assert.ok(!JSON.stringify(records).includes('@'), 'the records hold no address');
    } finally {
      await store.close();
    }
  });
});
