/**
 * Scale-out benchmark (distributed mode on the PostgreSQL, Kafka and MinIO of `.infra/env`): memo
 * creates per second with one document service and with two, on one shared PostgreSQL event store.
 * One target runs two gateways, gateway-N forwarding to document-N; "one instance" loads gateway 1
 * alone with CONNECTIONS connections, "two instances" splits the same connections over both gateways.
 * Reference in the same run: raw `pg`, one single-row INSERT per commit (what one create's event
 * append costs the server at least) with as many clients. Each round also records the machine's busy
 * CPU (/proc/stat) and the CPU time of each gateway and document process per create, to say where the
 * bound is. The three alternate in PAIRS rounds; bounded by time (DURATION_S each) and the step limit.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import { createDoc } from '../tests/support/documents';
import { startDistributed } from '../tests/support/targets';
import { loadEngineEnv } from './engine-env';
import { machine, writeSection } from './results';
import {
  fixed,
  type LoadFigures,
  load,
  loadNote,
  loadNow,
  median,
  newLogDir,
  processCpuMicros,
} from './support';

const CONNECTIONS = 8;
const WARMUP_S = 2;
const DURATION_S = 5;
const PAIRS = 3;
const BOUNDARY = 'docflowbenchscale';
const BODY = Buffer.from(
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="docForm"\r\n\r\n` +
    `${JSON.stringify({ valuesByTags: { subject: 'Scale bench', body: 'created by bench' } })}\r\n--${BOUNDARY}--\r\n`,
);

loadEngineEnv();
if (!process.env.POSTGRES_URL || !process.env.KAFKA_BROKERS) {
  console.log(
    'bench scale-document: no POSTGRES_URL / KAFKA_BROKERS (run `pnpm infra:up`), nothing measured',
  );
  process.exit(0);
}

/** Busy and total CPU ticks of the machine so far. */
function machineTicks(): { busy: number; total: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const n = fields.map(Number);
  const idle = n[3]! + n[4]!;
  const total = n.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

interface Round {
  perSecond: number;
  failures: number;
  /** Share of the machine's CPU busy during the round. */
  busy: number;
  /** CPU ms per create of each docflow process named. */
  cpuMsPerCreate: Record<string, number>;
}

/** Measures `work` (which returns how many creates succeeded and failed) with the CPU it took. */
async function measured(pids: Record<string, number>, work: () => Promise<{ ok: number; failures: number }>) {
  const cpu = (pid: number) => {
    const { user, sys } = processCpuMicros(pid);
    return user + sys;
  };
  const before = Object.fromEntries(Object.entries(pids).map(([n, pid]) => [n, cpu(pid)]));
  const ticks = machineTicks();
  const t0 = performance.now();
  const { ok, failures } = await work();
  const seconds = (performance.now() - t0) / 1000;
  const after = machineTicks();
  return {
    perSecond: ok / seconds,
    failures,
    busy: (after.busy - ticks.busy) / (after.total - ticks.total),
    cpuMsPerCreate: Object.fromEntries(
      Object.entries(pids).map(([n, pid]) => [n, (cpu(pid) - before[n]!) / 1000 / Math.max(ok, 1)]),
    ),
  } satisfies Round;
}

const started = loadNote();
console.log('distributed docflow: two gateways, two document services, one PostgreSQL');
const docflow = await startDistributed({
  gatewayInstances: 2,
  documentInstances: 2,
  sharedEventStore: true,
  logDir: newLogDir('scale-document'),
});
const pids = (() => {
  const all = docflow.pids();
  return Object.fromEntries(['gateway', 'gateway-2', 'document', 'document-2'].map((n) => [n, all[n]!]));
})();
const creates = (url: string, connections: number, duration: number): Promise<LoadFigures> =>
  load({
    url: `${url}/api/v2/docForm/form/memo`,
    method: 'POST',
    connections,
    duration,
    headers: {
      authorization: `Bearer ${docflow.adminKey}`,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    },
    body: BODY,
  });
const sum = (runs: LoadFigures[]) => ({
  ok: runs.reduce((a, r) => a + r.okPerSecond * DURATION_S, 0),
  failures: runs.reduce((a, r) => a + r.failures, 0),
});
const [g1, g2] = docflow.gatewayUrls as [string, string];

const pool = new pg.Pool({ connectionString: docflow.env.EVENTSTORE_CONNECTION_STRING, max: CONNECTIONS });
await pool.query(
  'CREATE TABLE bench_raw (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, data json NOT NULL)',
);
/** CONNECTIONS clients each inserting one row per commit until DURATION_S has passed. */
async function rawInserts() {
  const end = performance.now() + DURATION_S * 1000;
  let ok = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        await pool.query('INSERT INTO bench_raw (data) VALUES ($1)', [
          JSON.stringify({ subject: 'Scale bench' }),
        ]);
        ok++;
      }
    }),
  );
  return { ok, failures: 0 };
}

const one: Round[] = [];
const two: Round[] = [];
const raw: Round[] = [];
try {
  const first = await createDoc(g1, docflow.adminKey, 'memo', {
    docForm: { valuesByTags: { subject: 'x' } },
  });
  if (first.status !== 201) throw new Error(`create: ${first.status} ${first.text}`);
  await Promise.all([creates(g1, CONNECTIONS / 2, WARMUP_S), creates(g2, CONNECTIONS / 2, WARMUP_S)]);
  for (let i = 0; i < PAIRS; i++) {
    console.log(`round ${i + 1} of ${PAIRS} (load ${loadNow()})`);
    one.push(await measured(pids, async () => sum([await creates(g1, CONNECTIONS, DURATION_S)])));
    two.push(
      await measured(pids, async () =>
        sum(
          await Promise.all([
            creates(g1, CONNECTIONS / 2, DURATION_S),
            creates(g2, CONNECTIONS / 2, DURATION_S),
          ]),
        ),
      ),
    );
    raw.push(await measured(pids, rawInserts));
  }
} finally {
  await pool.end();
  await docflow.stop();
}

const med = (rounds: Round[], f: (r: Round) => number) => median(rounds.map(f));
const cpuOf = (rounds: Round[], name: string) =>
  fixed(
    med(rounds, (r) => r.cpuMsPerCreate[name]!),
    2,
  );
const row = (label: string, rounds: Round[]) =>
  `| ${label} | ${fixed(
    med(rounds, (r) => r.perSecond),
    0,
  )} (${rounds.map((r) => fixed(r.perSecond, 0)).join(', ')}) | ${fixed(med(rounds, (r) => r.busy) * 100, 0)}% | ${['gateway', 'gateway-2', 'document', 'document-2'].map((n) => cpuOf(rounds, n)).join(' / ')} | ${rounds.reduce((a, r) => a + r.failures, 0)} |`;
const gain = med(two, (r) => r.perSecond) / med(one, (r) => r.perSecond);
/** CPU ms per create of the gateways and document services together. */
const cpuPerCreate = (rounds: Round[]) =>
  med(rounds, (r) => Object.values(r.cpuMsPerCreate).reduce((a, b) => a + b, 0));
const cores = os.cpus().length;
const busyOne = med(one, (r) => r.busy);

const body = `## Scale-out: creates per second with one and with two document services on PostgreSQL

Command: \`pnpm bench\` (this part: \`pnpm exec tsx bench/scale-document.ts\`) · ${new Date().toISOString()} · ${machine()} · ${started}, at the end ${loadNow()}
Distributed mode, one target: identity, files, workflow, recognition, webhooks, two gateways and two document
services (gateway-N → document-N), all on one PostgreSQL database, Kafka and MinIO of \`.infra/env\`. A memo
create (multipart, no file) as the bootstrap admin, ${CONNECTIONS} connections for ${DURATION_S} s: "one" all
through gateway 1 (→ document), "two" half through each gateway (→ document, document-2). Reference: raw \`pg\`,
${CONNECTIONS} clients each committing one single-row INSERT at a time on the same server. ${PAIRS} rounds, the three
in turn; medians (each round's figure in brackets). CPU: the machine's busy share during the round, and CPU
ms per create of gateway / gateway-2 / document / document-2.

| measure | per second | machine CPU busy | CPU ms per create (gw / gw-2 / doc / doc-2) | failures |
|---|---|---|---|---|
${row('creates, one document service', one)}
${row('creates, two document services', two)}
${row('raw pg single-row commits (reference)', raw)}

Two document services give ${fixed(gain, 2)}× the creates of one here. Where the bound is: ${
  busyOne > 0.9
    ? `the machine's ${cores} cores (busy ${fixed(busyOne * 100, 0)}% already with one service, load average ${loadNow()} with the other work on the machine)`
    : `not the CPU (busy ${fixed(busyOne * 100, 0)}% with one service)`
}, not PostgreSQL (its single-row commits run at ${fixed(med(raw, (r) => r.perSecond) / med(one, (r) => r.perSecond), 0)}× the creates).
A create costs the gateways and document services ${fixed(cpuPerCreate(one), 1)} CPU ms with one document service and
${fixed(cpuPerCreate(two), 1)} ms with two: each document service builds its read models (views, audit heads) from the
whole store, so every create is folded by both: on these cores, shared with other work, a second process adds work,
not throughput. One document service's own bound is its event loop: about ${fixed(1000 / med(one, (r) => r.cpuMsPerCreate.document!), 0)} creates/s at its ${fixed(
  med(one, (r) => r.cpuMsPerCreate.document!),
  1,
)} CPU ms
per create; a second one on a core of its own would lift that (inferred from these CPU figures, not measured here).
`;
writeSection('scale-document', body);
console.log(body);
