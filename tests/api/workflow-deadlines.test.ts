/**
 * Stage deadlines over real HTTP, in every mode (issue 36): with the workflow service's clock moved
 * by the test (DOCFLOW_CLOCK_OFFSET_FILE), the reminder and each escalation the form can choose happen
 * once, are told in the history in words and reach webhooks as task.due_soon, task.overdue and
 * task.escalated (ids only), the reassigning one also as task.reassigned.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createDoc, createPerson, eventually } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const HOUR = 3_600_000;
const WAIT_MS = 60_000;
const dir = mkdtempSync(join(tmpdir(), 'docflow-deadlines-'));
const clockFile = join(dir, 'clock-offset');
/** Moves the workflow service's clock to `ms` after the real time. */
const moveClock = (ms: number) => writeFileSync(clockFile, String(ms));

const ESCALATIONS = {
  notify: { action: 'notify', contacts: ['carol@example.com'] },
  reassign: { action: 'reassign', contacts: ['carol@example.com'] },
  add: { action: 'addParticipants', contacts: ['carol@example.com'] },
  auto: { action: 'autoAnswer', answer: 2 },
} as const;
type Kind = keyof typeof ESCALATIONS;
const KINDS = Object.keys(ESCALATIONS) as Kind[];

// Distributed: two workflow processes on one shared store, so the scheduler's lease decides who fires.
for (const factory of targets({
  workflowInstances: 2,
  sharedEventStore: true,
  env: {
    DOCFLOW_CLOCK_OFFSET_FILE: clockFile,
    DOCFLOW_SCHEDULER_POLL_MS: '50',
    DOCFLOW_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  },
})) {
  describe(`stage deadlines [${factory.name}]`, { skip: factory.skip, timeout: 300_000 }, () => {
    let target: Target;
    let api: Api;
    let admin: string;
    let svc: string;
    let receiver: WebhookReceiver;
    const u: Record<string, string> = {};
    const docs = {} as Record<Kind, string>;
    const as = (user: string) => ({ key: svc, runAs: u[user] });
    const taskOf = async (id: string, user: string) =>
      (await api('GET', `/api/v2/docForm/${id}?embed=docResponse`, as(user))).body?.docResponse ?? null;
    const summaries = async (id: string): Promise<string[]> =>
      (await api('GET', `/api/v2/docForm/${id}/history`, { key: admin })).body.map((e: any) => e.summary);
    const told = (id: string, pattern: RegExp) =>
      eventually(
        () => summaries(id),
        (s) => s.some((line) => pattern.test(line)),
        WAIT_MS,
      );

    before(async () => {
      moveClock(0);
      target = await factory.start();
      api = apiClient(target.baseUrl);
      admin = target.adminKey;
      for (const name of ['author', 'bob', 'carol', 'dave'])
        u[name] = await createPerson(api, admin, `${name}@example.com`);
      svc = (
        await api('POST', '/api/admin/v1/accounts', {
          key: admin,
          body: { kind: 'service', email: 'portal@example.com', name_first: 'P', name_last: 'S' },
        })
      ).body.apiKey;
      receiver = await startWebhookReceiver();
      const hook = await api('POST', '/api/admin/v1/webhooks', {
        key: admin,
        body: {
          url: receiver.url,
          eventTypes: ['task.due_soon', 'task.overdue', 'task.escalated', 'task.reassigned'],
        },
      });
      assert.equal(hook.status, 201, hook.text);
      receiver.secret = hook.body.secret;
      for (const kind of KINDS) {
        const form = {
          name: `dl-${kind}`,
          title: `Deadline ${kind}`,
          formsystype: 9,
          tags: {},
          workflow: {
            approval: {
              stages: [
                {
                  participants: ['bob@example.com'],
                  deadline: { within: 'P2D', remindBefore: 'PT4H', escalation: ESCALATIONS[kind] },
                },
                { participants: ['dave@example.com'] },
              ],
            },
          },
        };
        const res = await api('PUT', `/api/admin/v1/forms/${form.name}`, { key: admin, body: form });
        assert.equal(res.status, 201, res.text);
        const created = await createDoc(
          target.baseUrl,
          svc,
          form.name,
          { docResponse: { taskstatus: 100 } },
          {
            runAs: u.author,
          },
        );
        assert.equal(created.status, 201, created.text);
        docs[kind] = created.body._id;
      }
    });
    after(async () => {
      await target?.stop();
      await receiver?.close();
    });

    it('a form with a deadline it cannot keep is refused', async () => {
      const res = await api('PUT', '/api/admin/v1/forms/dl-bad', {
        key: admin,
        body: {
          name: 'dl-bad',
          title: 'Bad',
          formsystype: 9,
          tags: {},
          workflow: {
            approval: {
              stages: [
                {
                  participants: ['bob@example.com'],
                  deadline: { within: 'P1M', escalation: { action: 'reassign' } },
                },
              ],
            },
          },
        },
      });
      assert.equal(res.status, 400, res.text);
    });

    it('four hours before the deadline bob’s task is due soon: in the history and as task.due_soon, once', async () => {
      const bobTasks = Object.fromEntries(
        await Promise.all(KINDS.map(async (k) => [k, (await taskOf(docs[k], 'bob')).respId])),
      );
      moveClock(44 * HOUR + 60_000);
      for (const kind of KINDS) {
        const lines = await told(docs[kind], /^Reminder: 1 open task of step 1 due by /);
        assert.equal(lines.filter((l) => l.startsWith('Reminder:')).length, 1, lines.join('\n'));
      }
      const dueSoon = await eventually(
        async () => receiver.received.filter((d) => d.payload.type === 'task.due_soon'),
        (r) => new Set(r.map((d) => d.payload.data.taskId)).size === KINDS.length,
        WAIT_MS,
      );
      assert.deepEqual(new Set(dueSoon.map((d) => d.payload.data.taskId)), new Set(Object.values(bobTasks)));
      for (const d of dueSoon) {
        assert.ok(d.verified);
        assert.match(d.payload.data.dueAt, /^\d{4}-.*Z$/);
      }
    });

    it('at the deadline each escalation acts once, with who and why in the history', async () => {
      moveClock(48 * HOUR + 60_000);
      const escalated = {
        notify:
          /1 open task escalated to carol Test \(no answer by the deadline .*: the escalation contacts are told\)/,
        reassign: /1 open task reassigned to carol Test \(no answer by the deadline /,
        add: /1 open task escalated by adding carol Test \(/,
        auto: /1 open task escalated \(no answer by the deadline .*: the form answers the tasks\)/,
      };
      for (const kind of KINDS) {
        const lines = await told(docs[kind], escalated[kind]);
        assert.equal(lines.filter((l) => escalated[kind].test(l)).length, 1, lines.join('\n'));
        assert.ok(
          lines.some((l) => /overdue since/.test(l)),
          lines.join('\n'),
        );
      }
      // notify: bob keeps the task; reassign: carol has it instead; add: both; auto: approved, next stage.
      assert.ok(await taskOf(docs.notify, 'bob'));
      assert.equal(await taskOf(docs.reassign, 'bob'), null);
      assert.ok(await taskOf(docs.reassign, 'carol'));
      assert.ok(await taskOf(docs.add, 'bob'));
      assert.ok(await taskOf(docs.add, 'carol'));
      const auto = await api('GET', `/api/v2/docForm/${docs.auto}`, { key: admin });
      assert.deepEqual([auto.body.state, auto.body.step, auto.body.status], [1, 2, 2]);
      assert.ok(await taskOf(docs.auto, 'dave'));
      assert.ok(
        (await summaries(docs.auto)).some((l) => /bob Test's task was approved automatically/.test(l)),
      );

      const escalations = await eventually(
        async () => receiver.received.filter((d) => d.payload.type === 'task.escalated'),
        (r) => new Set(r.map((d) => d.payload.data.escalation)).size === KINDS.length,
        WAIT_MS,
      );
      assert.deepEqual([...new Set(escalations.map((d) => d.payload.data.escalation))].sort(), [
        'addParticipants',
        'autoAnswer',
        'notify',
        'reassign',
      ]);
      assert.ok(receiver.received.some((d) => d.payload.type === 'task.overdue'));
      // Only the reassigning escalation hands a task over: bob's, to carol's new one.
      const carols = await taskOf(docs.reassign, 'carol');
      const handedOver = await eventually(
        async () => receiver.received.filter((d) => d.payload.type === 'task.reassigned'),
        (r) => r.length > 0,
        WAIT_MS,
      );
      const escalatedBobs = escalations.find((d) => d.payload.data.documentId === docs.reassign)!;
      assert.deepEqual(
        handedOver.map((d) => [d.payload.data.documentId, d.payload.data.taskId, d.payload.data.newTaskIds]),
        [[docs.reassign, escalatedBobs.payload.data.taskId, [carols.respId]]],
      );
      for (const d of receiver.received) assert.ok(!d.body.includes('@'), 'no e-mail address in a webhook');
    });
  });
}

after(() => rmSync(dir, { recursive: true, force: true }));
