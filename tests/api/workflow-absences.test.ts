/**
 * Absences over real HTTP, in every mode (issue 36), with the workflow service's clock moved by the test
 * (DOCFLOW_CLOCK_OFFSET_FILE): bob sets his own out-of-office (PUT /api/v2/me/absence, as himself
 * through a portal's svc-run-as) naming dave, for a period ten to twelve days ahead. A task that opens
 * for bob before the period is bob's; one that opens in it goes to dave, shown "on behalf of" bob in
 * dave's task, inbox and the history; one that opens after it is bob's again.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../support/documents';
import { type Target, targets } from '../support/targets';
import { type WorkflowCast, workflowCast } from '../support/workflow-cast';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
const dir = mkdtempSync(join(tmpdir(), 'docflow-absences-'));
const clockFile = join(dir, 'clock-offset');
/** Moves the workflow service's clock to `ms` after the real time. */
const moveClock = (ms: number) => writeFileSync(clockFile, String(ms));

for (const factory of targets({ env: { DOCFLOW_CLOCK_OFFSET_FILE: clockFile } })) {
  describe(`workflow absences [${factory.name}]`, { skip: factory.skip, timeout: 300_000 }, () => {
    let target: Target;
    let c: WorkflowCast;
    /** The absence's period, set once: from ten to twelve days after the suite started. */
    let from: number;
    let to: number;

    const setAbsence = (user: string, body: object) =>
      c.api('PUT', '/api/v2/me/absence', { ...c.as(user), body });

    before(async () => {
      moveClock(0);
      target = await factory.start();
      c = await workflowCast(target, ['Author', 'Bob', 'Dave']);
      const form = {
        name: 'away',
        title: 'Away',
        formsystype: 9,
        tags: {},
        workflow: { approval: { stages: [{ participants: ['bob@example.com'] }] } },
      };
      const res = await c.api('PUT', '/api/admin/v1/forms/away', { key: target.adminKey, body: form });
      assert.equal(res.status, 201, res.text);
      from = Date.now() + 10 * DAY;
      to = from + 2 * DAY;
      const set = await setAbsence('Bob', { deputy: c.u.Dave, from: iso(from), to: iso(to) });
      assert.equal(set.status, 200, set.text);
      assert.equal(set.body.deputy.id, c.u.Dave);
      assert.equal(set.body.deputy.from, iso(from));
    });
    after(() => target?.stop());

    it('before the period a new task is bob\u2019s', async () => {
      const id = await c.started('away');
      const bobs = await c.openTask(id, 'Bob');
      assert.equal(bobs?.assignee, c.u.Bob);
      assert.equal(bobs?.onBehalfOf, undefined);
    });

    it("in the period bob's new task goes to dave, on bob's behalf, in dave's inbox and the history", async () => {
      moveClock(from + DAY - Date.now());
      const id = await c.started('away');
      const daves = await c.openTask(id, 'Dave');
      assert.ok(daves, 'dave has the task');
      assert.equal(daves.assignee, c.u.Dave);
      assert.equal(daves.onBehalfOf, c.u.Bob);
      const inbox = await eventually(
        () => c.api('GET', '/api/v2/docForm/view/inbox?pageSize=100', c.as('Dave')),
        (r) => r.body.some((d: { _id: string }) => d._id === id),
      );
      assert.ok(
        inbox.body.some((d: { _id: string }) => d._id === id),
        'in dave\u2019s inbox',
      );
      // bob still reads the document his task went from
      assert.equal((await c.api('GET', `/api/v2/docForm/${id}`, c.as('Bob'))).status, 200);
      const answered = await c.api('PUT', `/api/v2/docForm/${id}/docResponse/${daves.respId}`, {
        ...c.as('Dave'),
        body: { docResponse: { taskstatus: 2, content: '' } },
      });
      assert.equal(answered.status, 200, answered.text);
      const history = await c.api('GET', `/api/v2/docForm/${id}/history`, { key: target.adminKey });
      const words = history.body.map((e: { summary: string }) => e.summary).join('\n');
      assert.match(words, /Waiting for Dave Example on behalf of Bob Example, who is away/);
      assert.match(words, /Dave Example, deputy of Bob Example, approved/);
    });

    it('once the period is over, new tasks are bob\u2019s again', async () => {
      moveClock(to + HOUR - Date.now());
      const id = await c.started('away');
      const bobs = await c.openTask(id, 'Bob');
      assert.equal(bobs?.assignee, c.u.Bob);
      assert.equal(bobs?.onBehalfOf, undefined);
    });

    it('a period out of order, oneself as deputy, or a service account acting as itself is refused', async () => {
      const now = Date.now();
      const reversed = await setAbsence('Bob', { deputy: c.u.Dave, from: iso(now + HOUR), to: iso(now) });
      assert.equal(reversed.status, 400, reversed.text);
      const self = await setAbsence('Bob', { deputy: c.u.Bob, from: iso(now), to: iso(now + HOUR) });
      assert.equal(self.status, 400, self.text);
      const service = await c.api('PUT', '/api/v2/me/absence', {
        key: c.svc,
        body: { deputy: c.u.Dave, from: iso(now), to: iso(now + HOUR) },
      });
      assert.equal(service.status, 403, service.text);
    });
  });
}

after(() => rmSync(dir, { recursive: true, force: true }));
