/**
 * Workflow command answers (issue 30: the facts reach the document by the bus only, and the answer
 * waits for them): WORKFLOW_DOCS documents, one at a time, each created with the action 100 (start
 * the approval) and its task answered by the approver; each step timed through the gateway, with a
 * GET of the same document as the reference measured in the same run. Embedded mode, and distributed
 * mode on the local Kafka and MinIO when `.infra/env` is there. Sequential and bounded by the count.
 *
 *   pnpm exec tsx bench/workflow-command.ts
 */
import { createDoc, createPerson } from '../tests/support/documents';
import { apiClient } from '../tests/support/http';
import { distributedEngines, startDistributed, startEmbedded, type Target } from '../tests/support/targets';
import { loadEngineEnv } from './engine-env';
import { fixed, loadNote, median, percentile } from './support';

const DOCS = Number(process.env.WORKFLOW_DOCS ?? 40);
const NO_EXPORTER = { OTEL_TRACES_EXPORTER: 'none' };

async function timed<T>(into: number[], run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await run();
  into.push(performance.now() - started);
  return result;
}

async function measure(mode: string, target: Target): Promise<void> {
  const api = apiClient(target.baseUrl);
  const admin = target.adminKey;
  const approver = await createPerson(api, admin, 'approver@example.com');
  const form = {
    name: 'bench-wf',
    title: 'Workflow bench',
    formsystype: 9,
    tags: {},
    workflow: { approval: { stages: [{ participants: ['approver@example.com'] }] } },
  };
  const defined = await api('PUT', '/api/admin/v1/forms/bench-wf', { key: admin, body: form });
  if (defined.status !== 201) throw new Error(`form: ${defined.status} ${defined.text}`);
  const creates: number[] = [];
  const answers: number[] = [];
  const reads: number[] = [];
  for (let i = 0; i < DOCS; i++) {
    const created = await timed(creates, () =>
      createDoc(target.baseUrl, admin, 'bench-wf', { docForm: {}, docResponse: { taskstatus: 100 } }),
    );
    if (created.status !== 201 || created.headers.get('x-error'))
      throw new Error(`create: ${created.status} ${created.headers.get('x-error') ?? created.text}`);
    const id = created.body._id as string;
    const read = await timed(reads, () =>
      api('GET', `/api/v2/docForm/${id}?embed=docResponse`, { key: admin, runAs: approver }),
    );
    const respId = read.body.docResponse?.respId;
    if (!respId) throw new Error(`no task for the approver: ${read.text}`);
    const answered = await timed(answers, () =>
      api('PUT', `/api/v2/docForm/${id}/docResponse/${respId}`, {
        key: admin,
        runAs: approver,
        body: { docResponse: { taskstatus: 3, content: 'approved' } },
      }),
    );
    if (answered.status !== 200) throw new Error(`answer: ${answered.status} ${answered.text}`);
  }
  const row = (what: string, values: number[]) =>
    console.log(
      `${mode}\t${what}\tmedian ${fixed(median(values), 1)} ms\tp90 ${fixed(percentile(values, 90), 1)} ms`,
    );
  row('create with action 100', creates);
  row('answer (PUT docResponse)', answers);
  row('reference: GET ?embed=docResponse', reads);
}

loadEngineEnv();
console.log(
  `# pnpm exec tsx bench/workflow-command.ts (${DOCS} documents per mode, one at a time; ${loadNote()})`,
);
const embedded = await startEmbedded({ env: NO_EXPORTER });
try {
  await measure('embedded', embedded);
} finally {
  await embedded.stop();
}
if (distributedEngines()) {
  const distributed = await startDistributed({ env: NO_EXPORTER });
  try {
    await measure('distributed', distributed);
  } finally {
    await distributed.stop();
  }
} else console.log('distributed: skipped, no engines (.infra/env)');
