/**
 * The workflow over real HTTP through the gateway, in every mode: phases, stages, tasks, answers,
 * management actions, deputies, inbox, history and concurrent answers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDoc, createPerson, eventually } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';

function assertProblem(res: { status: number; headers: Headers; body: any; text?: string }, status: number) {
  assert.equal(res.status, status, res.text ?? JSON.stringify(res.body));
  assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
}

const STATE = { registration: 0, approval: 1, sign: 2, execution: 3, archive: 4, repository: 5 };
const STATUS = { draft: 1, inProgress: 2, suspended: 3, completed: 4, declined: 5, cancelled: 6, blocked: 7 };

for (const factory of targets()) {
  describe(`workflow API [${factory.name}]`, { skip: factory.skip, timeout: 300_000 }, () => {
    let target: Target;
    let api: Api;
    let admin: string;
    let svc: string; // a service account without roles: users act through it with svc-run-as
    const u: Record<string, string> = {};

    const as = (user: string) => ({ key: svc, runAs: u[user] });
    const create = (parts: Parameters<typeof createDoc>[3], user = 'author') =>
      createDoc(target.baseUrl, svc, 'wf', parts, { runAs: u[user] });
    const read = (id: string, user: string, query = '?embed=docResponse') =>
      api('GET', `/api/v2/docForm/${id}${query}`, as(user));
    const manage = (id: string, taskstatus: number, user = 'author') =>
      api('POST', `/api/v2/docForm/${id}/docResponse`, {
        ...as(user),
        body: { docResponse: { taskstatus } },
      });
    const answer = (
      id: string,
      respId: string,
      taskstatus: number,
      user: string,
      extra: Record<string, unknown> = {},
    ) =>
      api('PUT', `/api/v2/docForm/${id}/docResponse/${respId}`, {
        ...as(user),
        body: { docResponse: { taskstatus, content: `${user} says ${taskstatus}` }, ...extra },
      });
    async function taskOf(id: string, user: string): Promise<string> {
      const res = await read(id, user);
      assert.equal(res.status, 200, res.text);
      assert.ok(res.body.docResponse, `${user} has an open task`);
      return res.body.docResponse.respId;
    }
    const codes = (d: any) => [d.state, d.step, d.iteration, d.status];

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      admin = target.adminKey;
      for (const name of ['author', 'bob', 'carol', 'dave', 'erin', 'frank', 'ghost', 'stranger'])
        u[name] = await createPerson(api, admin, `${name}@example.com`);
      const s = await api('POST', '/api/admin/v1/accounts', {
        key: admin,
        body: { kind: 'service', email: 'portal@example.com', name_first: 'P', name_last: 'S' },
      });
      svc = s.body.apiKey;
      const form = {
        name: 'wf',
        title: 'Workflow test',
        formsystype: 9,
        tags: { subject: 'string' },
        workflow: {
          approval: {
            stages: [{ participants: ['bob@example.com'] }, { participants: ['carol@example.com', u.dave] }],
            next: 'sign',
          },
          sign: { stages: [{ participants: ['erin@example.com'] }] },
          execution: { stages: [{ participants: ['frank@example.com'] }], next: 'archive' },
          dueDays: 2,
        },
      };
      assert.equal((await api('PUT', '/api/admin/v1/forms/wf', { key: admin, body: form })).status, 201);
      const noSign = {
        name: 'wf-nosign',
        title: 'No sign phase',
        formsystype: 9,
        tags: {},
        workflow: { approval: { stages: [{ participants: ['bob@example.com'] }] } },
      };
      assert.equal(
        (await api('PUT', '/api/admin/v1/forms/wf-nosign', { key: admin, body: noSign })).status,
        201,
      );
    });
    after(() => target?.stop());

    it('approval → sign → execution → archive → repository, with the history of every step', async () => {
      const created = await create({
        docForm: { valuesByTags: { subject: 'Plan' } },
        docResponse: { taskstatus: 100 },
      });
      assert.equal(created.status, 201, created.text);
      assert.ok(!created.headers.get('x-error'), created.headers.get('x-error') ?? '');
      const id = created.body._id;
      assert.deepEqual(codes(created.body), [STATE.approval, 1, 1, STATUS.inProgress]);

      // Stage 1: bob. Others see no task; a stranger may not even read the document.
      const bobTask = await read(id, 'bob');
      assert.equal(bobTask.body.docResponse.assignee, u.bob);
      assert.equal(bobTask.body.docResponse.taskstatus, 0);
      assert.match(bobTask.body.docResponse.respId, /^[0-9a-f]{24}$/);
      assert.equal((await read(id, 'author')).body.docResponse, null);
      assertProblem(await read(id, 'stranger'), 404);
      const inbox = await eventually(
        () => api('GET', '/api/v2/docForm/view/inbox', as('bob')),
        (r) => r.body.some?.((d: any) => d._id === id),
      );
      assert.ok(
        inbox.body.some((d: any) => d._id === id),
        'in bob\u2019s inbox',
      );
      // The view filters see the workflow's state.
      const inApproval = await api(
        'GET',
        '/api/v2/docForm/view/mydocs?state=1&step=1&iteration=1&status=2&pageSize=100',
        as('author'),
      );
      assert.ok(inApproval.body.some((d: any) => d._id === id));
      const inRegistration = await api(
        'GET',
        '/api/v2/docForm/view/mydocs?state=0&pageSize=100',
        as('author'),
      );
      assert.ok(!inRegistration.body.some((d: any) => d._id === id));

      // bob approves with edits, correcting the values in the same step.
      const approved = await answer(id, bobTask.body.docResponse.respId, 3, 'bob', {
        docForm: { valuesByTags: { subject: 'Plan (edited)' }, _tags: ['reviewed'] },
      });
      assert.equal(approved.status, 200, approved.text);
      assert.deepEqual(codes(approved.body), [STATE.approval, 2, 1, STATUS.inProgress]);
      assert.equal(approved.body.valuesByTags.subject, 'Plan (edited)');
      assert.deepEqual(approved.body._tags, ['reviewed']);
      assertProblem(await answer(id, bobTask.body.docResponse.respId, 2, 'bob'), 422);

      // Stage 2: carol and dave; the phase completes when both answered and sign starts by itself.
      assert.equal((await answer(id, await taskOf(id, 'carol'), 2, 'carol')).status, 200);
      const signed = await answer(id, await taskOf(id, 'dave'), 2, 'dave');
      assert.deepEqual(codes(signed.body), [STATE.sign, 1, 1, STATUS.inProgress]);
      assertProblem(await answer(id, await taskOf(id, 'erin'), 2, 'erin'), 400); // 2 does not answer a sign task
      const signDone = await answer(id, await taskOf(id, 'erin'), 8, 'erin');
      assert.deepEqual(codes(signDone.body), [STATE.sign, 1, 1, STATUS.completed]);

      const execution = await manage(id, 106);
      assert.equal(execution.status, 200, execution.text);
      assert.deepEqual(codes(execution.body), [STATE.execution, 1, 1, STATUS.inProgress]);
      const archived = await answer(id, await taskOf(id, 'frank'), 5, 'frank');
      assert.equal(archived.body.state, STATE.archive);
      const repository = await manage(id, 108);
      assert.equal(repository.status, 200, repository.text);
      assert.equal(repository.body.state, STATE.repository);
      assertProblem(await manage(id, 107), 422); // no way back from the repository

      const history = await api('GET', `/api/v2/docForm/${id}/history`, { key: admin });
      const workflowSteps = history.body.filter((e: any) => e.type === 'WorkflowChanged');
      assert.ok(workflowSteps.length >= 8, `${workflowSteps.length} workflow steps`);
      for (const step of workflowSteps) assert.match(step.actor, /^usr-/);
      const byBob = workflowSteps.find((e: any) =>
        e.data.events.some((x: any) => x.type === 'TaskAnswered' && x.data.answeredBy === u.bob),
      );
      assert.equal(byBob.runAs, u.bob);
      assert.ok(history.body.some((e: any) => e.type === 'DocumentFieldsUpdated' && e.runAs === u.bob));
      // ?rev replays the document to any step.
      const atCreation = await api('GET', `/api/v2/docForm/${id}?rev=1`, { key: admin });
      assert.deepEqual(codes(atCreation.body), [STATE.registration, 0, 0, STATUS.draft]);
    });

    it('decline ends the phase; restart (104) repeats it with iteration + 1 and new respIds', async () => {
      const id = (await create({ docResponse: { taskstatus: 100 } })).body._id;
      const first = await taskOf(id, 'bob');
      const declined = await answer(id, first, 4, 'bob');
      assert.deepEqual(codes(declined.body), [STATE.approval, 1, 1, STATUS.declined]);
      assertProblem(await answer(id, first, 2, 'bob'), 422);
      const restarted = await manage(id, 104);
      assert.deepEqual(codes(restarted.body), [STATE.approval, 1, 2, STATUS.inProgress]);
      const second = await taskOf(id, 'bob');
      assert.notEqual(second, first);
      assert.equal((await read(id, 'bob')).body.docResponse.iteration, 2);
    });

    it('suspend and resume; cancel; 422 for moves impossible from the state', async () => {
      const id = (await create({ docResponse: { taskstatus: 100 } })).body._id;
      const task = await taskOf(id, 'bob');
      assert.equal((await manage(id, 101)).body.status, STATUS.suspended);
      assertProblem(await manage(id, 101), 422);
      assertProblem(await answer(id, task, 2, 'bob'), 422);
      assert.equal((await manage(id, 102)).body.status, STATUS.inProgress);
      assertProblem(await manage(id, 102), 422);
      assertProblem(await manage(id, 100), 422); // a phase is running
      assert.equal((await manage(id, 103)).body.status, STATUS.cancelled);
      assertProblem(await answer(id, task, 2, 'bob'), 422);
    });

    it('block accepts only delete; delete hides the document (404, gone from views) and keeps its events', async () => {
      const id = (await create({ docResponse: { taskstatus: 100 } })).body._id;
      assert.equal((await manage(id, 110)).body.status, STATUS.blocked);
      for (const ts of [101, 102, 103, 104, 100, 107]) assertProblem(await manage(id, ts), 422);
      const deleted = await manage(id, 111);
      assert.equal(deleted.status, 200, deleted.text);
      assertProblem(await read(id, 'author', ''), 404);
      assertProblem(await api('GET', `/api/v2/docForm/${id}`, { key: admin }), 404);
      const mydocs = await eventually(
        () => api('GET', '/api/v2/docForm/view/mydocs?pageSize=100', as('author')),
        (r) => !r.body.some((d: any) => d._id === id),
      );
      assert.ok(!mydocs.body.some((d: any) => d._id === id));
    });

    it('create with an action that cannot be applied: 201, the document stays in registration, X-Error says why', async () => {
      const res = await createDoc(
        target.baseUrl,
        svc,
        'wf-nosign',
        { docResponse: { taskstatus: 105 } },
        { runAs: u.author },
      );
      assert.equal(res.status, 201, res.text);
      assert.ok((res.headers.get('x-error') ?? '').length > 0);
      assert.equal(res.body.state, STATE.registration);
      const ok = await create({ docResponse: { taskstatus: 104 } }); // in registration: starts the first phase
      assert.equal(ok.body.state, STATE.approval);
      assert.ok(!ok.headers.get('x-error'));
    });

    it('access: a participant may read but not manage (403); roles; invalid task statuses (400)', async () => {
      const id = (await create({ docResponse: { taskstatus: 100 } })).body._id;
      assertProblem(await manage(id, 101, 'bob'), 403);
      assertProblem(await manage(id, 101, 'stranger'), 404);
      assertProblem(
        await api('POST', `/api/v2/docForm/${id}/docResponse`, {
          key: svc,
          body: { docResponse: { taskstatus: 101 } },
        }),
        404,
      );
      assert.equal(
        (
          await api('POST', `/api/v2/docForm/${id}/docResponse`, {
            key: admin,
            body: { docResponse: { taskstatus: 101 } },
          })
        ).status,
        200,
      );
      assertProblem(await manage(id, 109), 400);
      assertProblem(await answer(id, await taskOf(id, 'bob'), 7, 'bob'), 400);
      assertProblem(await answer(id, await taskOf(id, 'bob'), 2, 'carol'), 404); // carol is no participant yet
      // The author may read the document but the task is bob's: 403.
      assertProblem(await answer(id, await taskOf(id, 'bob'), 2, 'author'), 403);
      assertProblem(
        await api('PUT', `/api/v2/docForm/${id}/docResponse/0123456789abcdef01234567`, {
          ...as('bob'),
          body: { docResponse: { taskstatus: 2, content: '' } },
        }),
        404,
      );
    });

    it('deputies: an enabled deputy sees and answers the assignee\u2019s task, recorded as acting for them', async () => {
      const id = (await create({ docResponse: { taskstatus: 100 } })).body._id;
      assertProblem(await read(id, 'ghost'), 404);
      const set = await api('POST', '/api/v2/person', {
        key: admin,
        body: { _id_sys: u.bob, deputy: { id: u.ghost, enabled: 'true' } },
      });
      assert.equal(set.status, 200, set.text);
      // Reads learn deputies from identity's events (the document service's deputies read model).
      const seen = await eventually(
        () => read(id, 'ghost'),
        (r) => r.status === 200,
      );
      assert.equal(seen.status, 200, seen.text);
      assert.equal(seen.body.docResponse.assignee, u.bob);
      const inbox = await eventually(
        () => api('GET', '/api/v2/docForm/view/inbox', as('ghost')),
        (r) => r.body.some?.((d: any) => d._id === id),
      );
      assert.ok(
        inbox.body.some((d: any) => d._id === id),
        'in the deputy\u2019s inbox',
      );
      const done = await answer(id, seen.body.docResponse.respId, 2, 'ghost');
      assert.equal(done.status, 200, done.text);
      const history = await api('GET', `/api/v2/docForm/${id}/history`, { key: admin });
      const answered = history.body
        .flatMap((e: any) => (e.type === 'WorkflowChanged' ? e.data.events : []))
        .find((x: any) => x.type === 'TaskAnswered');
      assert.equal(answered.data.answeredBy, u.ghost);
      assert.equal(answered.data.onBehalfOf, u.bob);

      await api('POST', '/api/v2/person', {
        key: admin,
        body: { _id_sys: u.bob, deputy: { id: u.ghost, enabled: 'false' } },
      });
      const other = (await create({ docResponse: { taskstatus: 100 } })).body._id;
      assertProblem(
        await eventually(
          () => read(other, 'ghost'),
          (r) => r.status === 404,
        ),
        404,
      );
    });

    it('16 concurrent answers to one task: exactly one 200, no lost update', async () => {
      const id = (await create({ docResponse: { taskstatus: 100 } })).body._id;
      const respId = await taskOf(id, 'bob');
      const results = await Promise.all(Array.from({ length: 16 }, () => answer(id, respId, 2, 'bob')));
      const statuses = results.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join());
      assert.ok(
        statuses.every((s) => s === 200 || s === 422 || s === 409),
        statuses.join(),
      );
      const doc = await api('GET', `/api/v2/docForm/${id}`, { key: admin });
      assert.equal(doc.body.step, 2);
      const history = await api('GET', `/api/v2/docForm/${id}/history`, { key: admin });
      const answers = history.body
        .flatMap((e: any) => (e.type === 'WorkflowChanged' ? e.data.events : []))
        .filter((x: any) => x.type === 'TaskAnswered');
      assert.equal(answers.length, 1);
    });
  });
}
