/**
 * An absence's deputy named by e-mail (issue 36), over real HTTP in every mode: a person who may not look
 * people up names their deputy by e-mail as a task's new assignee is named, the deputy is kept as the
 * person's `usr-` id, and an e-mail (or id) that names no active person is refused with the very
 * problem a reassignment to it gets.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Target, targets } from '../support/targets';
import { type WorkflowCast, workflowCast } from '../support/workflow-cast';

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

for (const factory of targets()) {
  describe(`absence deputy by e-mail [${factory.name}]`, { skip: factory.skip, timeout: 180_000 }, () => {
    let target: Target;
    let c: WorkflowCast;
    // Ahead, so that bob's own tasks stay his while the suite runs.
    const period = () => ({ from: iso(Date.now() + 10 * DAY), to: iso(Date.now() + 11 * DAY) });
    const setAbsence = (deputy: string) =>
      c.api('PUT', '/api/v2/me/absence', { ...c.as('Bob'), body: { deputy, ...period() } });
    /** What handing bob's open task to `to` answers. */
    const reassignTo = async (to: string) => {
      const id = await c.started('deputy-email');
      const bobs = await c.openTask(id, 'Bob');
      return c.reassign(id, bobs.respId, c.as('Bob'), to, 'away');
    };

    before(async () => {
      target = await factory.start();
      c = await workflowCast(target, ['Author', 'Bob', 'Dave']);
      const form = {
        name: 'deputy-email',
        title: 'Deputy by e-mail',
        formsystype: 9,
        tags: {},
        workflow: { approval: { stages: [{ participants: ['Bob@example.com'] }] } },
      };
      const res = await c.api('PUT', '/api/admin/v1/forms/deputy-email', {
        key: target.adminKey,
        body: form,
      });
      assert.equal(res.status, 201, res.text);
    });
    after(() => target?.stop());

    it('bob, no administrator, names dave by e-mail: dave is his deputy, kept by id', async () => {
      const lookup = await c.api('GET', '/api/admin/v1/accounts?email=Dave%40example.com', c.as('Bob'));
      assert.equal(lookup.status, 403, 'bob may not look people up');
      const set = await setAbsence('Dave@example.com');
      assert.equal(set.status, 200, set.text);
      assert.equal(set.body.deputy.id, c.u.Dave);
      const bob = await c.api('GET', `/api/v2/person/${c.u.Bob}`, { key: target.adminKey });
      assert.equal(bob.body.deputy.id, c.u.Dave);
      assert.equal(bob.body.deputy.enabled, 'true');
    });

    it('an e-mail or id of nobody is refused as a reassignment to it is: 422, the same problem', async () => {
      for (const nobody of ['nobody@example.com', 'usr-00000000-0000-4000-8000-000000000000']) {
        const refused = await setAbsence(nobody);
        const reassigned = await reassignTo(nobody);
        assert.equal(refused.status, 422, refused.text);
        assert.match(refused.headers.get('content-type') ?? '', /problem\+json/);
        assert.deepEqual(
          { title: refused.body.title, detail: refused.body.detail, status: refused.body.status },
          { title: reassigned.body.title, detail: reassigned.body.detail, status: reassigned.body.status },
        );
      }
      const bob = await c.api('GET', `/api/v2/person/${c.u.Bob}`, { key: target.adminKey });
      assert.equal(bob.body.deputy.id, c.u.Dave, 'the deputy set before stays');
    });
  });
}
