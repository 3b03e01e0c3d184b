/**
 * `embed=actions` names the tasks the caller may hand over (issue 36), over real HTTP in every mode:
 * decided by the rule POST …/reassign checks, so each task offered is one the command takes from that
 * caller, and a caller offered none is refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CallOptions } from '../support/http';
import { type Target, targets } from '../support/targets';
import { type WorkflowCast, workflowCast } from '../support/workflow-cast';

for (const factory of targets()) {
  describe(`reassign in embed=actions [${factory.name}]`, { skip: factory.skip, timeout: 180_000 }, () => {
    let target: Target;
    let c: WorkflowCast;
    let auditorSvc: string;
    const offered = async (id: string, options: CallOptions): Promise<string[]> => {
      const res = await c.api('GET', `/api/v2/docForm/${id}?embed=actions`, options);
      assert.equal(res.status, 200, res.text);
      return res.body.actions.reassign;
    };

    before(async () => {
      target = await factory.start();
      c = await workflowCast(target, ['Author', 'Bob', 'Dave', 'Erin', 'Carol']);
      auditorSvc = await c.serviceAccount('audit@example.com', ['svcAuditR']);
      const form = {
        name: 'handover-actions',
        title: 'Handover actions',
        formsystype: 9,
        tags: {},
        workflow: {
          approval: {
            stages: [
              { participants: ['Bob@example.com', 'Dave@example.com'] },
              { participants: ['Carol@example.com'] },
            ],
          },
        },
      };
      const res = await c.api('PUT', `/api/admin/v1/forms/${form.name}`, {
        key: target.adminKey,
        body: form,
      });
      assert.equal(res.status, 201, res.text);
    });
    after(() => target?.stop());

    it('the stage’s participants and the author are offered both open tasks, an auditor none; the command agrees', async () => {
      const id = await c.started('handover-actions');
      const bobs = await c.openTask(id, 'Bob');
      const daves = await c.openTask(id, 'Dave');
      const both = [bobs.respId, daves.respId].sort();
      for (const user of ['Bob', 'Dave', 'Author'])
        assert.deepEqual((await offered(id, c.as(user))).sort(), both, user);
      assert.deepEqual(await offered(id, { key: auditorSvc }), []);
      assert.equal((await c.reassign(id, daves.respId, { key: auditorSvc }, 'Erin@example.com')).status, 403);

      // Bob hands Dave's task to Erin: it is no longer open, so no one is offered it; Erin's is.
      const handed = await c.reassign(id, daves.respId, c.as('Bob'), 'Erin@example.com');
      assert.equal(handed.status, 200, handed.text);
      const erins = await c.openTask(id, 'Erin');
      assert.deepEqual((await offered(id, c.as('Bob'))).sort(), [bobs.respId, erins.respId].sort());
      assert.equal((await c.reassign(id, daves.respId, c.as('Bob'), 'Carol@example.com')).status, 422);
    });
  });
}
