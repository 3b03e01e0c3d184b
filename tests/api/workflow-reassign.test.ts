/**
 * Reassignment over real HTTP, in every mode (issue 36): a participant of the stage, the author or a
 * holder of svcAdminDocRW hands an open task to another person with a reason; the old task closes, the
 * new one opens in the new assignee's inbox, and the history says it in words; webhooks get
 * task.reassigned (ids only). Unknown person 422, a participant of another stage 403, a stranger 404.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../support/documents';
import { type Target, targets } from '../support/targets';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { type WorkflowCast, workflowCast } from '../support/workflow-cast';

for (const factory of targets({ env: { DOCFLOW_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' } })) {
  describe(`workflow reassignment [${factory.name}]`, { skip: factory.skip, timeout: 300_000 }, () => {
    let target: Target;
    let c: WorkflowCast;
    let adminSvc: string; // a service account holding svcAdminDocRW and svcAdminDocsRW
    let auditorSvc: string; // a service account holding svcAuditR: reads any document
    let receiver: WebhookReceiver;

    before(async () => {
      target = await factory.start();
      c = await workflowCast(target, ['Author', 'Bob', 'Carol', 'Dave', 'Stranger']);
      adminSvc = await c.serviceAccount(
        'ops@example.com',
        ['svcAdminDocRW', 'svcAdminDocsRW'],
        ['Ops', 'Desk'],
      );
      auditorSvc = await c.serviceAccount('audit@example.com', ['svcAuditR']);
      const form = {
        name: 'handover',
        title: 'Handover',
        formsystype: 9,
        tags: {},
        workflow: {
          approval: {
            stages: [{ participants: ['bob@example.com'] }, { participants: ['carol@example.com'] }],
          },
        },
      };
      const res = await c.api('PUT', '/api/admin/v1/forms/handover', { key: target.adminKey, body: form });
      assert.equal(res.status, 201, res.text);
      receiver = await startWebhookReceiver();
      const hook = await c.api('POST', '/api/admin/v1/webhooks', {
        key: target.adminKey,
        body: { url: receiver.url, eventTypes: ['task.reassigned', 'task.opened'] },
      });
      assert.equal(hook.status, 201, hook.text);
      receiver.secret = hook.body.secret;
    });
    after(async () => {
      await target?.stop();
      await receiver?.close();
    });

    it("bob hands his approval to dave: bob's task closes, dave's opens and is answered; history in words", async () => {
      const id = await c.started('handover');
      const bobs = await c.openTask(id, 'Bob');
      const res = await c.reassign(id, bobs.respId, c.as('Bob'), 'dave@example.com');
      assert.equal(res.status, 200, res.text);
      assert.equal(await c.openTask(id, 'Bob'), null);
      const daves = await c.openTask(id, 'Dave');
      assert.ok(daves && daves.respId !== bobs.respId, 'dave has a task of his own');
      assert.equal(daves.step, 1);
      assert.ok(await eventually(() => c.inInbox(id, 'Dave'), Boolean), 'in dave\u2019s inbox');
      assert.equal(
        await eventually(
          () => c.inInbox(id, 'Bob'),
          (v) => !v,
        ),
        false,
        'gone from bob\u2019s inbox',
      );
      // bob's closed task can no longer be answered; dave's answer moves the stage on
      const late = await c.api('PUT', `/api/v2/docForm/${id}/docResponse/${bobs.respId}`, {
        ...c.as('Bob'),
        body: { docResponse: { taskstatus: 2, content: '' } },
      });
      assert.equal(late.status, 422, late.text);
      const answered = await c.api('PUT', `/api/v2/docForm/${id}/docResponse/${daves.respId}`, {
        ...c.as('Dave'),
        body: { docResponse: { taskstatus: 2, content: '' } },
      });
      assert.equal(answered.status, 200, answered.text);
      assert.equal(answered.body.step, 2);
      const history = await c.api('GET', `/api/v2/docForm/${id}/history`, { key: target.adminKey });
      const words = history.body.map((e: { summary: string }) => e.summary);
      assert.ok(
        words.includes(
          'Portal Service on behalf of Bob Example handed the approval to Dave Example: on holiday. Waiting for Dave Example',
        ),
        words.join('\n'),
      );
    });

    it("an administrator (svcAdminDocRW) and the author hand someone else's task over", async () => {
      const id = await c.started('handover');
      const bobs = await c.openTask(id, 'Bob');
      const byAdmin = await c.reassign(id, bobs.respId, { key: adminSvc }, c.u.Dave!, 'workload');
      assert.equal(byAdmin.status, 200, byAdmin.text);
      const daves = await c.openTask(id, 'Dave');
      const byAuthor = await c.reassign(id, daves.respId, c.as('Author'), 'bob@example.com', 'back');
      assert.equal(byAuthor.status, 200, byAuthor.text);
      assert.ok(await c.openTask(id, 'Bob'));
      const history = await c.api('GET', `/api/v2/docForm/${id}/history`, { key: target.adminKey });
      assert.ok(
        history.body.some((e: { summary: string }) =>
          e.summary.startsWith("Ops Desk handed Bob Example's approval to Dave Example: workload"),
        ),
        history.text,
      );
    });

    it('webhooks get task.reassigned: the closed task and the one opened in its place, ids only', async () => {
      const id = await c.started('handover');
      const bobs = await c.openTask(id, 'Bob');
      const res = await c.reassign(
        id,
        bobs.respId,
        c.as('Bob'),
        'dave@example.com',
        'Dave knows dave@example.com',
      );
      assert.equal(res.status, 200, res.text);
      const daves = await c.openTask(id, 'Dave');
      const ofDoc = () => receiver.received.filter((d) => d.payload.data.documentId === id);
      await eventually(
        async () => ofDoc().map((d) => d.payload.type),
        (types) => types.includes('task.reassigned') && types.filter((t) => t === 'task.opened').length === 2,
        60_000,
      );
      const handedOver = ofDoc().filter((d) => d.payload.type === 'task.reassigned');
      assert.equal(handedOver.length, 1);
      const [delivery] = handedOver;
      assert.ok(delivery!.verified, 'signed');
      assert.equal(delivery!.payload.data.taskId, bobs.respId);
      assert.deepEqual(delivery!.payload.data.newTaskIds, [daves.respId]);
      assert.equal(delivery!.payload.data.step, 1);
      // The hand-over comes before the task it opened; no person, address or reason in either.
      const order = ofDoc().map((d) => `${d.payload.type} ${d.payload.data.taskId}`);
      assert.ok(
        order.indexOf(`task.reassigned ${bobs.respId}`) < order.indexOf(`task.opened ${daves.respId}`),
        order.join('\n'),
      );
      for (const d of ofDoc()) assert.ok(!/usr-|@|Dave knows/.test(d.body), d.body);
    });

    it('unknown person 422, an auditor 403, a stranger 404, no reason 400; nothing changes', async () => {
      const id = await c.started('handover');
      const bobs = await c.openTask(id, 'Bob');
      const unknown = await c.reassign(id, bobs.respId, c.as('Bob'), 'nobody@example.com');
      assert.equal(unknown.status, 422, unknown.text);
      assert.match(unknown.headers.get('content-type') ?? '', /problem\+json/);
      // an auditor reads every document but changes nothing
      const auditor = await c.reassign(id, bobs.respId, { key: auditorSvc }, 'dave@example.com');
      assert.equal(auditor.status, 403, auditor.text);
      // carol's task (stage 2) has not opened yet: like a stranger she does not learn the document exists
      for (const user of ['Stranger', 'Carol']) {
        const res = await c.reassign(id, bobs.respId, c.as(user), 'dave@example.com');
        assert.equal(res.status, 404, `${user}: ${res.text}`);
      }
      const noReason = await c.reassign(id, bobs.respId, c.as('Bob'), 'dave@example.com', '');
      assert.equal(noReason.status, 400, noReason.text);
      assert.equal((await c.openTask(id, 'Bob'))?.respId, bobs.respId);
      // dave was given nothing, so the document stays unknown to him
      assert.equal((await c.api('GET', `/api/v2/docForm/${id}`, c.as('Dave'))).status, 404);
    });
  });
}
