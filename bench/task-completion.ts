/**
 * Task completions per second (issue 36): TASK_DOCS documents in a two-stage approval, their first
 * stage's tasks answered (PUT docResponse through the gateway) by TASK_WORKERS workers at once; for
 * each, the time from sending the answer until the second stage's approver sees their task (GET
 * ?embed=docResponse as them). Reference in the same run: the same number of those GETs alone, with
 * the same concurrency. Anchor: Camunda 8.8 SaaS "1x" is sized at 100 user tasks/s on about 11 vCPU.
 * Embedded mode, and distributed on the local engines when `.infra/env` is there. Bounded by the count.
 *
 *   pnpm exec tsx bench/task-completion.ts
 */
import { cpus } from 'node:os';
import { createDoc, createPerson } from '../tests/support/documents';
import { type Api, apiClient } from '../tests/support/http';
import { distributedEngines, startDistributed, startEmbedded, type Target } from '../tests/support/targets';
import { loadEngineEnv } from './engine-env';
import { machine, writeSection } from './results';
import { fixed, loadNote, loadNow, median, percentile } from './support';

const DOCS = Number(process.env.TASK_DOCS ?? 300);
const WORKERS = Number(process.env.TASK_WORKERS ?? 8);
const NO_EXPORTER = { OTEL_TRACES_EXPORTER: 'none' };
/** Camunda 8.8 SaaS cluster size 1x: 100 completed user tasks/s on about 11 vCPU. */
const ANCHOR = { tasksPerSecond: 100, vcpu: 11 };

/** Runs `work` on each item, `WORKERS` at a time; the seconds it took. */
async function pooled<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
  return (performance.now() - started) / 1000;
}

interface Figures {
  mode: string;
  completionsPerSecond: number;
  nextTaskMs: number[];
  answerMs: number[];
  readsPerSecond: number;
}

async function measure(mode: string, target: Target): Promise<Figures> {
  const api: Api = apiClient(target.baseUrl);
  const admin = target.adminKey;
  const first = await createPerson(api, admin, 'first@example.com');
  const second = await createPerson(api, admin, 'second@example.com');
  const form = {
    name: 'bench-tasks',
    title: 'Task completion bench',
    formsystype: 9,
    tags: {},
    workflow: {
      approval: {
        stages: [{ participants: ['first@example.com'] }, { participants: ['second@example.com'] }],
      },
    },
  };
  const defined = await api('PUT', '/api/admin/v1/forms/bench-tasks', { key: admin, body: form });
  if (defined.status !== 201) throw new Error(`form: ${defined.status} ${defined.text}`);
  // Setup, not measured: the documents in approval and the first approver's task of each.
  const tasks: { id: string; respId: string }[] = [];
  const ids = Array.from({ length: DOCS }, (_, i) => i);
  await pooled(ids, async () => {
    const created = await createDoc(target.baseUrl, admin, 'bench-tasks', {
      docForm: {},
      docResponse: { taskstatus: 100 },
    });
    if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text}`);
    const id = created.body._id as string;
    const read = await api('GET', `/api/v2/docForm/${id}?embed=docResponse`, { key: admin, runAs: first });
    tasks.push({ id, respId: read.body.docResponse.respId });
  });
  const taskOfSecond = (id: string) =>
    api('GET', `/api/v2/docForm/${id}?embed=docResponse`, { key: admin, runAs: second });

  const nextTaskMs: number[] = [];
  const answerMs: number[] = [];
  const completionSeconds = await pooled(tasks, async ({ id, respId }) => {
    const sent = performance.now();
    const answered = await api('PUT', `/api/v2/docForm/${id}/docResponse/${respId}`, {
      key: admin,
      runAs: first,
      body: { docResponse: { taskstatus: 2, content: 'ok' } },
    });
    if (answered.status !== 200) throw new Error(`answer: ${answered.status} ${answered.text}`);
    answerMs.push(performance.now() - sent);
    // The answer waits until the document records it, so the next task shows at once (bounded retries).
    for (let attempt = 0; ; attempt++) {
      if ((await taskOfSecond(id)).body.docResponse) break;
      if (attempt === 100) throw new Error(`no second-stage task on ${id}`);
    }
    nextTaskMs.push(performance.now() - sent);
  });
  const readSeconds = await pooled(tasks, async ({ id }) => {
    const read = await taskOfSecond(id);
    if (read.status !== 200) throw new Error(`read: ${read.status}`);
  });
  return {
    mode,
    completionsPerSecond: DOCS / completionSeconds,
    nextTaskMs,
    answerMs,
    readsPerSecond: DOCS / readSeconds,
  };
}

loadEngineEnv();
const note = loadNote();
console.log(`# pnpm exec tsx bench/task-completion.ts (${DOCS} documents, ${WORKERS} workers; ${note})`);
const results: Figures[] = [];
const embedded = await startEmbedded({ env: NO_EXPORTER });
try {
  results.push(await measure('embedded', embedded));
} finally {
  await embedded.stop();
}
if (distributedEngines()) {
  const distributed = await startDistributed({ env: NO_EXPORTER });
  try {
    results.push(await measure('distributed', distributed));
  } finally {
    await distributed.stop();
  }
} else console.log('distributed: skipped, no engines (.infra/env)');

const cores = cpus().length;
const anchorPerCore = ANCHOR.tasksPerSecond / ANCHOR.vcpu;
const rows = results.map(
  (r) =>
    `| ${r.mode} | **${fixed(r.completionsPerSecond)}** | ${fixed(r.completionsPerSecond / cores)} | ${fixed(median(r.answerMs))} / ${fixed(percentile(r.answerMs, 99))} | ${fixed(median(r.nextTaskMs))} / ${fixed(percentile(r.nextTaskMs, 99))} | ${fixed(r.readsPerSecond)} |`,
);
const body = `## Task completions: PUT docResponse through the gateway, and the time to the next stage's task (issue 36)
\`pnpm exec tsx bench/task-completion.ts\` (part of \`pnpm bench\`), ${new Date().toISOString().slice(0, 16)} UTC; ${machine()};
${note}, ${loadNow()} at the end. ${DOCS} documents in a two-stage approval; their first-stage tasks approved by ${WORKERS}
workers at once through the gateway (run-as the approver); "next task" is from sending the answer until the second
stage's approver sees their task (GET \`?embed=docResponse\` as them). Reference, same run: those GETs alone, ${WORKERS} at once.

| mode | completions/s | per core | answer ms p50 / p99 | next task ms p50 / p99 | reference: GETs/s |
|---|---|---|---|---|---|
${rows.join('\n')}

Anchor: Camunda 8.8 SaaS cluster size 1x is sized at ${ANCHOR.tasksPerSecond} user tasks/s on about ${ANCHOR.vcpu} vCPU, ${fixed(anchorPerCore)}
per vCPU; this machine has ${cores} cores, shared with other work while it ran (the load average above).`;
writeSection('task-completion', body);
console.log(body);
