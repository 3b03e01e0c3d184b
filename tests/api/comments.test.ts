/**
 * Comments over real HTTP, in every mode (issue 36): whoever reads a document adds to and reads its
 * thread (who, when, text as written); a stranger gets 404; the history says who commented; a webhook
 * learns the comment's id only, never its text.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDoc, createPerson, eventually } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const ENV = { DOCFLOW_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' };
// Markup and markdown stay text: stored and answered exactly as written.
const TEXT = 'Looks fine **but** check <script>alert(1)</script> the [total](javascript:x)';

for (const factory of targets({ env: ENV })) {
  describe(`comments [${factory.name}]`, { skip: factory.skip, timeout: 300_000 }, () => {
    let target: Target;
    let api: Api;
    let receiver: WebhookReceiver;
    let svc: string;
    const u: Record<string, string> = {};
    const as = (user: string) => ({ key: svc, runAs: u[user] });
    let id = '';

    before(async () => {
      receiver = await startWebhookReceiver();
      target = await factory.start();
      api = apiClient(target.baseUrl);
      for (const name of ['author', 'bob', 'stranger'])
        u[name] = await createPerson(api, target.adminKey, `${name}@example.com`);
      const s = await api('POST', '/api/admin/v1/accounts', {
        key: target.adminKey,
        body: { kind: 'service', email: 'portal@example.com', name_first: 'P', name_last: 'S' },
      });
      svc = s.body.apiKey;
      const form = {
        name: 'talk',
        title: 'Talk',
        formsystype: 9,
        tags: {},
        workflow: { approval: { stages: [{ participants: ['bob@example.com'] }] } },
      };
      assert.equal(
        (await api('PUT', '/api/admin/v1/forms/talk', { key: target.adminKey, body: form })).status,
        201,
      );
      const hook = await api('POST', '/api/admin/v1/webhooks', {
        key: target.adminKey,
        body: { url: receiver.url, eventTypes: ['comment.added'] },
      });
      assert.equal(hook.status, 201, hook.text);
      receiver.secret = hook.body.secret;
      const created = await createDoc(
        target.baseUrl,
        svc,
        'talk',
        { docResponse: { taskstatus: 100 } },
        {
          runAs: u.author,
        },
      );
      assert.equal(created.status, 201, created.text);
      id = created.body._id;
    });
    after(async () => {
      await target?.stop();
      await receiver?.close();
    });

    it('the author and a participant comment; the thread answers who, when and the text as written', async () => {
      const first = await api('POST', `/api/v2/docForm/${id}/comments`, {
        ...as('author'),
        body: { text: TEXT },
      });
      assert.equal(first.status, 201, first.text);
      assert.match(first.body.id, /^[0-9a-f]{24}$/);
      assert.equal(first.body.author, u.author);
      assert.equal(first.body.text, TEXT);
      assert.match(first.body.at, /Z$/);
      const second = await api('POST', `/api/v2/docForm/${id}/comments`, {
        ...as('bob'),
        body: { text: 'ok' },
      });
      assert.equal(second.status, 201, second.text);
      const thread = await api('GET', `/api/v2/docForm/${id}/comments`, as('bob'));
      assert.equal(thread.status, 200, thread.text);
      assert.deepEqual(
        thread.body.map((c: { author: string; text: string }) => [c.author, c.text]),
        [
          [u.author, TEXT],
          [u.bob, 'ok'],
        ],
      );
      const history = await api('GET', `/api/v2/docForm/${id}/history`, { key: target.adminKey });
      const words = history.body.map((e: { summary: string }) => e.summary);
      assert.ok(words.includes("P S on behalf of bob Test commented: 'ok'"), words.join('\n'));
    });

    it('a stranger gets 404 both ways; an empty comment is 400', async () => {
      const read = await api('GET', `/api/v2/docForm/${id}/comments`, as('stranger'));
      assert.equal(read.status, 404, read.text);
      const write = await api('POST', `/api/v2/docForm/${id}/comments`, {
        ...as('stranger'),
        body: { text: 'hi' },
      });
      assert.equal(write.status, 404, write.text);
      const empty = await api('POST', `/api/v2/docForm/${id}/comments`, {
        ...as('author'),
        body: { text: '  ' },
      });
      assert.equal(empty.status, 400, empty.text);
    });

    it('webhooks get comment.added with the comment id, never its text', async () => {
      const thread = (await api('GET', `/api/v2/docForm/${id}/comments`, as('author'))).body as Array<{
        id: string;
      }>;
      await eventually(
        async () => receiver.received.filter((d) => d.payload.type === 'comment.added').length,
        (n) => n >= thread.length,
        90_000,
      );
      const deliveries = receiver.received.filter((d) => d.payload.type === 'comment.added');
      assert.deepEqual(
        [...new Set(deliveries.map((d) => d.payload.data.commentId))].sort(),
        thread.map((c) => c.id).sort(),
      );
      for (const d of deliveries) {
        assert.ok(d.verified, 'signed');
        assert.equal(d.payload.data.documentId, id);
        assert.ok(!d.body.includes('alert') && !d.body.includes("'ok'") && !d.body.includes('"ok"'), d.body);
        assert.equal(d.payload.data.text, undefined);
      }
    });
  });
}
