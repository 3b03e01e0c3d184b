/**
 * A stage deadline is a due date (issue 36), over real HTTP in every mode: the task's and the document's
 * `datedue` are the earlier of the stage deadline and the phase's due date, so the inbox, ordered as the
 * console orders it, lists a document whose stage deadline passed first, as overdue.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { byUrgency, isOverdue } from '../../packages/console/src/web/model';
import { createDoc, createPerson, eventually } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';

const DAY = 86_400_000;
const dir = mkdtempSync(join(tmpdir(), 'docflow-due-dates-'));
const clockFile = join(dir, 'clock-offset');
/** Moves the workflow service's clock to `ms` after the real time. */
const moveClock = (ms: number) => writeFileSync(clockFile, String(ms));

/** A one-stage approval by bob, due `dueDays` after creation, its stage within `within` (if given). */
const formOf = (name: string, dueDays: number, within?: string) => ({
  name,
  title: name,
  formsystype: 9,
  tags: {},
  workflow: {
    dueDays,
    approval: {
      stages: [{ participants: ['bob@example.com'], ...(within ? { deadline: { within } } : {}) }],
    },
  },
});

for (const factory of targets({ env: { DOCFLOW_CLOCK_OFFSET_FILE: clockFile } })) {
  describe(`due dates of stage deadlines [${factory.name}]`, { skip: factory.skip, timeout: 180_000 }, () => {
    let target: Target;
    let api: Api;
    let svc: string;
    const u: Record<string, string> = {};
    /** Each document with the real time just before and after it was created. */
    const docs: Record<string, { id: string; from: number; to: number }> = {};
    const asBob = () => ({ key: svc, runAs: u.bob });
    const create = async (form: string) => {
      const from = Date.now();
      const res = await createDoc(
        target.baseUrl,
        svc,
        form,
        { docResponse: { taskstatus: 100 } },
        { runAs: u.author },
      );
      assert.equal(res.status, 201, res.text);
      docs[form] = { id: res.body._id, from, to: Date.now() };
    };
    /** The document and bob's task on it. */
    const read = async (form: string) => {
      const res = await api('GET', `/api/v2/docForm/${docs[form]!.id}?embed=docResponse`, asBob());
      assert.equal(res.status, 200, res.text);
      return res.body;
    };

    before(async () => {
      moveClock(0);
      target = await factory.start();
      api = apiClient(target.baseUrl);
      for (const name of ['author', 'bob'])
        u[name] = await createPerson(api, target.adminKey, `${name}@example.com`);
      svc = (
        await api('POST', '/api/admin/v1/accounts', {
          key: target.adminKey,
          body: { kind: 'service', email: 'portal@example.com', name_first: 'P', name_last: 'S' },
        })
      ).body.apiKey;
      for (const form of [
        formOf('due-late', 30),
        formOf('due-stage', 30, 'P1D'),
        formOf('due-past', 30, 'P1D'),
      ]) {
        const res = await api('PUT', `/api/admin/v1/forms/${form.name}`, {
          key: target.adminKey,
          body: form,
        });
        assert.equal(res.status, 201, res.text);
      }
      // The past one: its stage started three days ago by the workflow's clock, so it is a day overdue.
      moveClock(-3 * DAY);
      await create('due-past');
      moveClock(0);
      await create('due-stage');
      await create('due-late');
    });
    after(async () => {
      await target?.stop();
    });

    it('the stage deadline, earlier than the phase’s due date, is the task’s and the document’s datedue', async () => {
      const doc = await read('due-stage');
      const { from, to } = docs['due-stage']!;
      const due = Date.parse(doc.docResponse.datedue);
      assert.ok(
        due >= from + DAY && due <= to + DAY,
        `stage deadline a day after creation: ${doc.docResponse.datedue}`,
      );
      assert.equal(doc.datedue, doc.docResponse.datedue);
    });

    it('without a stage deadline the phase’s due date stays the task’s, and the document’s own stays its', async () => {
      const doc = await read('due-late');
      const { from, to } = docs['due-late']!;
      for (const datedue of [doc.datedue, doc.docResponse.datedue]) {
        const due = Date.parse(datedue);
        assert.ok(due >= from + 30 * DAY && due <= to + 30 * DAY, datedue);
      }
    });

    it('in bob’s inbox the document past its stage deadline is overdue and listed first', async () => {
      const past = await read('due-past');
      assert.ok(isOverdue(past.docResponse.datedue), past.docResponse.datedue);
      assert.equal(past.datedue, past.docResponse.datedue);
      const ids = Object.values(docs).map((d) => d.id);
      const inbox = await eventually(
        async () => (await api('GET', '/api/v2/docForm/view/inbox?pageSize=100', asBob())).body,
        (body: any[]) => ids.every((id) => body?.some((d) => d._id === id)),
      );
      const ordered = [...inbox].sort(byUrgency);
      assert.deepEqual(
        ordered.map((d) => d._id),
        [docs['due-past']!.id, docs['due-stage']!.id, docs['due-late']!.id],
      );
      assert.equal(ordered[0].datedue, past.datedue);
      assert.ok(isOverdue(ordered[0].datedue));
      assert.ok(!isOverdue(ordered[1].datedue));
    });
  });
}

after(() => rmSync(dir, { recursive: true, force: true }));
