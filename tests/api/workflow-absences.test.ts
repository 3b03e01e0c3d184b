/**
 * Absences over real HTTP, in every mode (issue 36): bob sets his own out-of-office (PUT /api/v2/me/absence,
 * as himself through a portal's svc-run-as) naming dave; a task that opens for bob in the period goes
 * to dave, shown "on behalf of" bob in dave's task, inbox and the history; once the period is over new
 * tasks are bob's again. The period is set around the server's own clock at the time of the request.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDoc, eventually } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

for (const factory of targets()) {
  describe(`workflow absences [${factory.name}]`, { skip: factory.skip, timeout: 300_000 }, () => {
    let target: Target;
    let api: Api;
    let svc: string;
    const u: Record<string, string> = {};
    const as = (user: string) => ({ key: svc, runAs: u[user] });

    async function started(): Promise<string> {
      const res = await createDoc(
        target.baseUrl,
        svc,
        'away',
        { docResponse: { taskstatus: 100 } },
        {
          runAs: u.Author,
        },
      );
      assert.equal(res.status, 201, res.text);
      return res.body._id;
    }
    const openTask = async (id: string, user: string) =>
      (await api('GET', `/api/v2/docForm/${id}?embed=docResponse`, as(user))).body.docResponse;
    const setAbsence = (user: string, body: object) =>
      api('PUT', '/api/v2/me/absence', { ...as(user), body });

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      for (const name of ['Author', 'Bob', 'Dave']) {
        const res = await api('POST', '/api/admin/v1/accounts', {
          key: target.adminKey,
          body: { kind: 'person', email: `${name}@example.com`, name_first: name, name_last: 'Example' },
        });
        assert.equal(res.status, 201, res.text);
        u[name] = res.body._id_sys;
      }
      const s = await api('POST', '/api/admin/v1/accounts', {
        key: target.adminKey,
        body: { kind: 'service', email: 'portal@example.com', name_first: 'Portal', name_last: 'Service' },
      });
      svc = s.body.apiKey;
      const form = {
        name: 'away',
        title: 'Away',
        formsystype: 9,
        tags: {},
        workflow: { approval: { stages: [{ participants: ['bob@example.com'] }] } },
      };
      const res = await api('PUT', '/api/admin/v1/forms/away', { key: target.adminKey, body: form });
      assert.equal(res.status, 201, res.text);
    });
    after(() => target?.stop());

    it("bob away: his new task goes to dave, on bob's behalf, in dave's inbox and the history", async () => {
      const now = Date.now();
      const set = await setAbsence('Bob', {
        deputy: u.Dave,
        from: iso(now - HOUR),
        to: iso(now + 24 * HOUR),
      });
      assert.equal(set.status, 200, set.text);
      assert.equal(set.body.deputy.id, u.Dave);
      assert.equal(set.body.deputy.from, iso(now - HOUR));
      const id = await started();
      const daves = await openTask(id, 'Dave');
      assert.ok(daves, 'dave has the task');
      assert.equal(daves.assignee, u.Dave);
      assert.equal(daves.onBehalfOf, u.Bob);
      const inbox = await eventually(
        () => api('GET', '/api/v2/docForm/view/inbox?pageSize=100', as('Dave')),
        (r) => r.body.some((d: { _id: string }) => d._id === id),
      );
      assert.ok(
        inbox.body.some((d: { _id: string }) => d._id === id),
        'in dave\u2019s inbox',
      );
      // bob still reads the document his task went from
      assert.equal((await api('GET', `/api/v2/docForm/${id}`, as('Bob'))).status, 200);
      const answered = await api('PUT', `/api/v2/docForm/${id}/docResponse/${daves.respId}`, {
        ...as('Dave'),
        body: { docResponse: { taskstatus: 2, content: '' } },
      });
      assert.equal(answered.status, 200, answered.text);
      const history = await api('GET', `/api/v2/docForm/${id}/history`, { key: target.adminKey });
      const words = history.body.map((e: { summary: string }) => e.summary).join('\n');
      assert.match(words, /Waiting for Dave Example on behalf of Bob Example, who is away/);
      assert.match(words, /Dave Example, deputy of Bob Example, approved/);
    });

    it('once the period is over, new tasks are bob\u2019s again', async () => {
      const now = Date.now();
      const set = await setAbsence('Bob', { deputy: u.Dave, from: iso(now - 2 * HOUR), to: iso(now - HOUR) });
      assert.equal(set.status, 200, set.text);
      const id = await started();
      const bobs = await openTask(id, 'Bob');
      assert.equal(bobs?.assignee, u.Bob);
      assert.equal(bobs?.onBehalfOf, undefined);
    });

    it('a period out of order, oneself as deputy, or a service account acting as itself is refused', async () => {
      const now = Date.now();
      const reversed = await setAbsence('Bob', { deputy: u.Dave, from: iso(now + HOUR), to: iso(now) });
      assert.equal(reversed.status, 400, reversed.text);
      const self = await setAbsence('Bob', { deputy: u.Bob, from: iso(now), to: iso(now + HOUR) });
      assert.equal(self.status, 400, self.text);
      const service = await api('PUT', '/api/v2/me/absence', {
        key: svc,
        body: { deputy: u.Dave, from: iso(now), to: iso(now + HOUR) },
      });
      assert.equal(service.status, 403, service.text);
    });
  });
}
