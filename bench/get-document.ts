/**
 * GET document benchmark: GET /api/v2/docForm/{id} through the gateway of embedded docflow (a child
 * process, startEmbedded), once with metrics and tracing on (no exporter) and once with
 * DOCFLOW_TELEMETRY=off, beside a bare Hono JSON route (bench/bare-hono.ts, a child process too)
 * answering the same document. autocannon, 50 connections, a short warm-up then 10 s each.
 */

import { createDoc } from '../tests/support/documents';
import { startTsProcess } from '../tests/support/process';
import { startEmbedded } from '../tests/support/targets';
import { profiledRun } from './profile';
import { machine, writeSection } from './results';
import { fixed, type LoadFigures, load, loadNote, newLogFile, pct, verdict } from './support';

const CONNECTIONS = 50;
const WARMUP_S = 2;
const DURATION_S = 10;
const PROFILE_S = 5;

async function measure(url: string, headers: Record<string, string>): Promise<LoadFigures> {
  await load({ url, headers, connections: CONNECTIONS, duration: WARMUP_S });
  return load({ url, headers, connections: CONNECTIONS, duration: DURATION_S });
}

/** Starts embedded docflow, creates one document, loads GET on it; `seconds` only when profiling. */
async function gatewayRun(env: Record<string, string>, seconds?: number) {
  const docflow = await startEmbedded({ env, logFile: newLogFile('get-document') });
  try {
    const created = await createDoc(docflow.baseUrl, docflow.adminKey, 'memo', {
      docForm: {
        valuesByTags: { subject: 'Budget 2027', body: 'Plan for the next year' },
        _tags: ['finance'],
      },
      files: [{ name: 'plan.txt', content: 'a small attachment' }],
    });
    if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text}`);
    const url = `${docflow.baseUrl}/api/v2/docForm/${created.body._id}`;
    const headers = { authorization: `Bearer ${docflow.adminKey}` };
    const check = await fetch(url, { headers });
    if (check.status !== 200) throw new Error(`GET document: ${check.status} ${await check.text()}`);
    const document: unknown = await check.json();
    const figures =
      seconds === undefined
        ? await measure(url, headers)
        : await load({ url, headers, connections: CONNECTIONS, duration: seconds });
    return { document, figures };
  } finally {
    await docflow.stop();
  }
}

/** Tracing on means spans with ids but no exporter: an endpoint in the caller's environment is dropped. */
const NO_EXPORTER = { OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '' };

const started = loadNote();
console.log('gateway, telemetry on');
const { document, figures: gateway } = await gatewayRun({ ...NO_EXPORTER, DOCFLOW_TELEMETRY: 'on' });
console.log('gateway, telemetry off');
const { figures: untraced } = await gatewayRun({ ...NO_EXPORTER, DOCFLOW_TELEMETRY: 'off' });

const bare = startTsProcess('bench/bare-hono.ts', { BARE_BODY: JSON.stringify(document) }, 'bare hono');
let reference: LoadFigures;
try {
  const ready = await bare.waitForLog((l) => l.msg === 'bare hono listening');
  console.log('bare hono');
  reference = await measure(`http://127.0.0.1:${ready.port}/doc`, {});
} finally {
  await bare.stop();
}

const ratio = gateway.rps / reference.rps;
const met = ratio >= 0.4 && gateway.p99 <= 20;
const profile = met
  ? ''
  : await profiledRun(PROFILE_S, (env) => gatewayRun({ ...NO_EXPORTER, ...env }, PROFILE_S));

const body = `## GET document: gateway (telemetry on and off) beside bare Hono

Command: \`pnpm bench\` (this part: \`pnpm exec tsx bench/get-document.ts\`) · ${new Date().toISOString()} · ${machine()} · ${started}
autocannon, ${CONNECTIONS} connections, ${WARMUP_S} s warm-up then ${DURATION_S} s, 127.0.0.1. Docflow: embedded mode in its own
process (\`LOG_LEVEL=info\`, its log written to a file), \`GET /api/v2/docForm/{id}\` as the admin service account (API key auth, role check,
document read), run twice: with metrics and tracing on as shipped (no OTLP exporter: spans get ids, none is
recorded) and with \`DOCFLOW_TELEMETRY=off\` (no metrics or tracing middleware and wrappers). Reference: a bare
Hono route on @hono/node-server in its own process returning the same JSON document
(${JSON.stringify(document).length} bytes). Load generator and server share the machine's cores.

| measure | gateway, telemetry on | gateway, telemetry off | bare Hono (reference) | on / reference | off / reference | on / off | target (telemetry on) |
|---|---|---|---|---|---|---|---|
| requests/s | ${fixed(gateway.rps, 0)} | ${fixed(untraced.rps, 0)} | ${fixed(reference.rps, 0)} | ${pct(gateway.rps, reference.rps)} | ${pct(untraced.rps, reference.rps)} | ${pct(gateway.rps, untraced.rps)} | ≥ 40%: ${verdict(ratio >= 0.4)} |
| p50 latency, ms | ${fixed(gateway.p50)} | ${fixed(untraced.p50)} | ${fixed(reference.p50)} | | | | |
| p99 latency, ms | ${fixed(gateway.p99)} | ${fixed(untraced.p99)} | ${fixed(reference.p99)} | | | | ≤ 20 ms: ${verdict(gateway.p99 <= 20)} |
| requests (failures) | ${gateway.requests} (${gateway.failures}) | ${untraced.requests} (${untraced.failures}) | ${reference.requests} (${reference.failures}) | | | | |

Telemetry overhead: ${fixed((1 - gateway.rps / untraced.rps) * 100)}% of the requests per second of the run with it off.
${profile}`;
writeSection('get-document', body);
console.log(body);
