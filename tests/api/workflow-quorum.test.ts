/**
 * Quorum over real HTTP, in every mode (issue 36): an approval stage of bob, carol and dave completes
 * after all, any one, or two approvals; the tasks it no longer needs leave their inboxes; a decline
 * ends the phase, or counts against the quorum when the form says so.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../support/documents';
import { type Target, targets } from '../support/targets';
import { type WorkflowCast, workflowCast } from '../support/workflow-cast';

const APPROVAL = 1;
const SIGN = 2;
const STATUS = { inProgress: 2, declined: 5 };

for (const factory of targets()) {
  describe(`workflow quorum [${factory.name}]`, { skip: factory.skip, timeout: 300_000 }, () => {
    let target: Target;
    let c: WorkflowCast;

    async function defineForm(name: string, quorum: unknown, onDecline?: string) {
      const form = {
        name,
        title: name,
        formsystype: 9,
        tags: { subject: 'string' },
        workflow: {
          approval: {
            stages: [{ participants: ['bob@example.com', 'carol@example.com', c.u.dave], quorum }],
            next: 'sign',
          },
          sign: { stages: [{ participants: ['erin@example.com'] }] },
          ...(onDecline ? { onDecline } : {}),
        },
      };
      const res = await c.api('PUT', `/api/admin/v1/forms/${name}`, { key: target.adminKey, body: form });
      assert.equal(res.status, 201, res.text);
    }
    async function answer(id: string, user: string, taskstatus: number) {
      const task = await c.api('GET', `/api/v2/docForm/${id}?embed=docResponse`, c.as(user));
      assert.ok(task.body.docResponse, `${user} has an open task`);
      const res = await c.api('PUT', `/api/v2/docForm/${id}/docResponse/${task.body.docResponse.respId}`, {
        ...c.as(user),
        body: { docResponse: { taskstatus, content: '' } },
      });
      assert.equal(res.status, 200, res.text);
      return [res.body.state, res.body.status];
    }

    before(async () => {
      target = await factory.start();
      c = await workflowCast(target, ['author', 'bob', 'carol', 'dave', 'erin']);
      await defineForm('q-all', 'all');
      await defineForm('q-any', 'any');
      await defineForm('q-two', 2, 'countAgainstQuorum');
    });
    after(() => target?.stop());

    it('all: the stage waits for every approval', async () => {
      const id = await c.started('q-all');
      assert.deepEqual(await answer(id, 'bob', 2), [APPROVAL, STATUS.inProgress]);
      assert.deepEqual(await answer(id, 'carol', 2), [APPROVAL, STATUS.inProgress]);
      assert.deepEqual(await answer(id, 'dave', 2), [SIGN, STATUS.inProgress]);
    });

    it('any: the first approval completes the stage; the other tasks close and leave the inboxes', async () => {
      const id = await c.started('q-any');
      assert.ok(await eventually(() => c.inInbox(id, 'carol'), Boolean), 'in carol\u2019s inbox first');
      assert.deepEqual(await answer(id, 'bob', 2), [SIGN, STATUS.inProgress]);
      assert.equal(await c.openTask(id, 'carol'), null);
      assert.equal(await c.openTask(id, 'dave'), null);
      assert.equal(
        await eventually(
          () => c.inInbox(id, 'carol'),
          (v) => !v,
        ),
        false,
        'gone from carol\u2019s inbox',
      );
      const history = await c.api('GET', `/api/v2/docForm/${id}/history`, { key: target.adminKey });
      assert.ok(
        history.body.some((e: { summary: string }) =>
          e.summary.includes('The stage reached its quorum: 2 open tasks closed'),
        ),
        history.text,
      );
    });

    it('any, a decline ending the phase (the default): one decline declines though the quorum was in reach', async () => {
      const id = await c.started('q-any');
      assert.deepEqual(await answer(id, 'bob', 4), [APPROVAL, STATUS.declined]);
      assert.equal(await c.openTask(id, 'carol'), null);
      assert.equal(await c.openTask(id, 'dave'), null);
    });

    it('two, declines counting against it: one decline is survived, the second approval completes', async () => {
      const id = await c.started('q-two');
      assert.deepEqual(await answer(id, 'bob', 4), [APPROVAL, STATUS.inProgress]);
      assert.deepEqual(await answer(id, 'carol', 2), [APPROVAL, STATUS.inProgress]);
      assert.deepEqual(await answer(id, 'dave', 2), [SIGN, STATUS.inProgress]);
    });

    it('two, declines counting against it: a second decline makes two unreachable and declines', async () => {
      const id = await c.started('q-two');
      assert.deepEqual(await answer(id, 'bob', 4), [APPROVAL, STATUS.inProgress]);
      assert.deepEqual(await answer(id, 'carol', 4), [APPROVAL, STATUS.declined]);
      assert.equal(await c.openTask(id, 'dave'), null);
    });

    it('a quorum above the participants is refused with 400', async () => {
      const res = await c.api('PUT', '/api/admin/v1/forms/q-four', {
        key: target.adminKey,
        body: {
          name: 'q-four',
          title: 'q',
          formsystype: 9,
          tags: {},
          workflow: { approval: { stages: [{ participants: [c.u.bob, c.u.carol], quorum: 4 }] } },
        },
      });
      assert.equal(res.status, 400, res.text);
    });
  });
}
