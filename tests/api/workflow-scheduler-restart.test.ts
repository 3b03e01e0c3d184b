/**
 * The scheduler fires a stage deadline once across restarts of the running system, in every mode
 * (issue 36), with the workflow service's clock moved by the test (DOCFLOW_CLOCK_OFFSET_FILE): the
 * deadline passes while the workflow service is down (embedded: the whole process, killed;
 * distributed: the workflow process, killed), and after the start it fires — once. After a second
 * restart it fires nothing again: a later document's deadline firing shows the scheduler has passed.
 * (Two schedulers at once: workflow-deadlines.test.ts runs two workflow processes in distributed mode;
 * scheduler.int.test.ts two schedulers on one SQLite store and on PostgreSQL.)
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createDoc, createPerson, eventually } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import {
  distributedSkipReason,
  newAdminKey,
  startDistributed,
  startEmbedded,
  type Target,
} from '../support/targets';

const HOUR = 3_600_000;
const WAIT_MS = 60_000;
const dir = mkdtempSync(join(tmpdir(), 'docflow-scheduler-restart-'));
const clockFile = join(dir, 'clock-offset');
/** Moves the workflow service's clock to `ms` after the real time. */
const moveClock = (ms: number) => writeFileSync(clockFile, String(ms));
const ENV = { DOCFLOW_CLOCK_OFFSET_FILE: clockFile, DOCFLOW_SCHEDULER_POLL_MS: '50' };

/** A running system whose workflow service can be killed and started again. */
interface Running {
  target: Target;
  /** Kills the workflow service, runs `whileDown`, starts it again and waits until it serves. */
  restartWorkflow(whileDown: () => void): Promise<void>;
  stop(): Promise<void>;
}

const MODES: { name: string; skip?: string; start(): Promise<Running> }[] = [
  {
    name: 'embedded',
    async start() {
      const dataDir = mkdtempSync(join(dir, 'data-'));
      const adminKey = newAdminKey();
      const start = () => startEmbedded({ dataDir, adminKey, env: ENV });
      let target = await start();
      return {
        get target() {
          return target;
        },
        async restartWorkflow(whileDown) {
          await target.proc.kill();
          whileDown();
          target = await start();
        },
        stop: () => target.stop(),
      };
    },
  },
  {
    name: 'distributed',
    skip: distributedSkipReason(),
    async start() {
      const target = await startDistributed({ env: ENV });
      return {
        target,
        async restartWorkflow(whileDown) {
          await target.procs.workflow!.kill();
          whileDown();
          await target.restart('workflow');
        },
        stop: () => target.stop(),
      };
    },
  },
];

for (const mode of MODES) {
  describe(`scheduler across restarts [${mode.name}]`, { skip: mode.skip, timeout: 300_000 }, () => {
    let running: Running;
    const u: Record<string, string> = {};
    let svc: string;
    const api = (): Api => apiClient(running.target.baseUrl);

    /** How many workflow facts of `type` the document's history holds. */
    const factCount = async (id: string, type: string) => {
      const history = await api()('GET', `/api/v2/docForm/${id}/history`, { key: running.target.adminKey });
      assert.equal(history.status, 200, history.text);
      return history.body
        .flatMap((e: { data: { events?: { type: string }[] } }) => e.data.events ?? [])
        .filter((e: { type: string }) => e.type === type).length;
    };
    const escalatedOnce = (id: string) =>
      eventually(
        () => factCount(id, 'TasksEscalated'),
        (n) => n > 0,
        WAIT_MS,
      );
    const started = async () => {
      const res = await createDoc(
        running.target.baseUrl,
        svc,
        'restart',
        { docResponse: { taskstatus: 100 } },
        { runAs: u.author },
      );
      assert.equal(res.status, 201, res.text);
      return res.body._id as string;
    };

    before(async () => {
      moveClock(0);
      running = await mode.start();
      const admin = running.target.adminKey;
      for (const name of ['author', 'bob', 'carol'])
        u[name] = await createPerson(api(), admin, `${name}@example.com`);
      svc = (
        await api()('POST', '/api/admin/v1/accounts', {
          key: admin,
          body: { kind: 'service', email: 'portal@example.com', name_first: 'P', name_last: 'S' },
        })
      ).body.apiKey;
      const form = {
        name: 'restart',
        title: 'Restart',
        formsystype: 9,
        tags: {},
        workflow: {
          approval: {
            stages: [
              {
                participants: ['bob@example.com'],
                deadline: {
                  within: 'P2D',
                  escalation: { action: 'notify', contacts: ['carol@example.com'] },
                },
              },
            ],
          },
        },
      };
      const res = await api()('PUT', '/api/admin/v1/forms/restart', { key: admin, body: form });
      assert.equal(res.status, 201, res.text);
    });
    after(() => running?.stop());

    it('a deadline that passed while the workflow service was down fires once after its start, and never again', async () => {
      const first = await started();
      assert.equal(await factCount(first, 'TasksOverdue'), 0);
      await running.restartWorkflow(() => moveClock(49 * HOUR));
      assert.equal(await escalatedOnce(first), 1);
      assert.equal(await factCount(first, 'TasksOverdue'), 1);

      // Down and up again; then a later document's deadline fires, so the scheduler has passed the
      // first one again since the restart.
      await running.restartWorkflow(() => {});
      const later = await started();
      moveClock(2 * 49 * HOUR);
      assert.equal(await escalatedOnce(later), 1);
      assert.deepEqual(
        [await factCount(first, 'TasksOverdue'), await factCount(first, 'TasksEscalated')],
        [1, 1],
      );
    });
  });
}

after(() => rmSync(dir, { recursive: true, force: true }));
