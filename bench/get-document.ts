/**
 * GET document benchmark: GET /api/v2/docForm/{id} through the gateway of docflow, in embedded mode
 * (one child process) with metrics and tracing on and with DOCFLOW_TELEMETRY=off, and in distributed
 * mode (gateway → document over HTTP, each service its own process, on the Kafka and MinIO of
 * `.infra/env`), beside a bare Hono JSON route (bench/bare-hono.ts, a child process too) answering the
 * same document, and the floors of each (bench/get-floor.ts: what no docflow GET can leave out, the
 * embedded one with telemetry on and off). All run side by side; autocannon, 50 connections, a short
 * warm-up each, then PAIRS rounds of DURATION_S s per target, docflow's and the reference's turns
 * alternating.
 */

import { randomUUID } from 'node:crypto';
import { createDoc } from '../tests/support/documents';
import { startTsProcess } from '../tests/support/process';
import { distributedEngines, startDistributed, startEmbedded, type Target } from '../tests/support/targets';
import { loadEngineEnv } from './engine-env';
import { profiledRun, restartProfile } from './profile';
import { machine, writeSection } from './results';
import {
  alternate,
  fixed,
  type LoadFigures,
  load,
  loadNote,
  loadNow,
  median,
  medianRatio,
  newLogDir,
  newLogFile,
  pairList,
  pct,
  verdict,
} from './support';

const CONNECTIONS = 50;
const WARMUP_S = 2;
const DURATION_S = 5;
const PAIRS = 5;
const PROFILE_S = 5;
/** The processes a distributed GET goes through. */
const PROFILED_SERVICES = ['gateway', 'document'];

const measure = (url: string, headers: Record<string, string>, duration = DURATION_S) =>
  load({ url, headers, connections: CONNECTIONS, duration });

/** The document every run reads: created through the gateway, with one attachment. */
async function seedDocument(target: Target) {
  const created = await createDoc(target.baseUrl, target.adminKey, 'memo', {
    docForm: {
      valuesByTags: { subject: 'Budget 2027', body: 'Plan for the next year' },
      _tags: ['finance'],
    },
    files: [{ name: 'plan.txt', content: 'a small attachment' }],
  });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text}`);
  const url = `${target.baseUrl}/api/v2/docForm/${created.body._id}`;
  const headers = { authorization: `Bearer ${target.adminKey}` };
  const check = await fetch(url, { headers });
  if (check.status !== 200) throw new Error(`GET document: ${check.status} ${await check.text()}`);
  const document: unknown = await check.json();
  await measure(url, headers, WARMUP_S);
  return { url, headers, document };
}

/** Tracing on means spans with ids but no exporter: an endpoint in the caller's environment is dropped. */
const NO_EXPORTER = { OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '' };

const embeddedTarget = (env: Record<string, string>) =>
  startEmbedded({ env: { ...NO_EXPORTER, ...env }, logFile: newLogFile('get-document') });

const started = loadNote();
loadEngineEnv();
const stops: Array<() => Promise<void>> = [];
try {
  console.log('starting: embedded (telemetry on, off), distributed, bare hono');
  const on = await embeddedTarget({ DOCFLOW_TELEMETRY: 'on' });
  stops.push(() => on.stop());
  const off = await embeddedTarget({ DOCFLOW_TELEMETRY: 'off' });
  stops.push(() => off.stop());
  const distributedSkip = distributedEngines()
    ? undefined
    : 'not run: no KAFKA_BROKERS / MINIO_* (`.infra/env` of `pnpm infra:up`)';
  const distributed = distributedSkip
    ? undefined
    : await startDistributed({ env: NO_EXPORTER, logDir: newLogDir('get-document') });
  if (distributed) stops.push(() => distributed.stop());

  const onRun = await seedDocument(on);
  const offRun = await seedDocument(off);
  const distRun = distributed ? await seedDocument(distributed) : undefined;
  const bare = startTsProcess(
    'bench/bare-hono.ts',
    { BARE_BODY: JSON.stringify(onRun.document) },
    'bare hono',
  );
  stops.push(async () => {
    await bare.stop();
  });
  const ready = await bare.waitForLog((l) => l.msg === 'bare hono listening');
  const bareUrl = `http://127.0.0.1:${ready.port}/doc`;
  await measure(bareUrl, {}, WARMUP_S);
  // The floors (bench/get-floor.ts): embedded with telemetry on and off, and distributed (an edge
  // process calling a service process over HTTP).
  const startFloor = async (name: string, env: Record<string, string>) => {
    const proc = startTsProcess(
      'bench/get-floor.ts',
      { ...NO_EXPORTER, FLOOR_DOC_JSON: JSON.stringify(onRun.document), ...env },
      name,
      { logFile: newLogFile(name) },
    );
    stops.push(async () => {
      await proc.stop();
    });
    const listening = await proc.waitForLog((l) => l.msg === 'get floor listening');
    return `http://127.0.0.1:${listening.port}${new URL(onRun.url).pathname}`;
  };
  const floorKey = { FLOOR_API_KEY: on.adminKey };
  const floorUrl = await startFloor('get-floor-on', { ...floorKey, DOCFLOW_TELEMETRY: 'on' });
  const floorOffUrl = await startFloor('get-floor-off', { ...floorKey, DOCFLOW_TELEMETRY: 'off' });
  const internalToken = { FLOOR_INTERNAL_TOKEN: randomUUID(), DOCFLOW_TELEMETRY: 'on' };
  const floorServiceUrl = await startFloor('get-floor-service', internalToken);
  const floorDistUrl = await startFloor('get-floor-edge', {
    ...floorKey,
    ...internalToken,
    FLOOR_UPSTREAM: new URL(floorServiceUrl).origin,
  });
  for (const url of [floorUrl, floorOffUrl, floorDistUrl]) await measure(url, onRun.headers, WARMUP_S);

  const none: LoadFigures = {
    rps: Number.NaN,
    okPerSecond: 0,
    p50: Number.NaN,
    p99: Number.NaN,
    requests: 0,
    failures: 0,
  };
  const pairs = await alternate(
    PAIRS,
    async () => ({
      on: await measure(onRun.url, onRun.headers),
      off: await measure(offRun.url, offRun.headers),
      dist: distRun ? await measure(distRun.url, distRun.headers) : none,
      floor: await measure(floorUrl, onRun.headers),
      floorOff: await measure(floorOffUrl, onRun.headers),
      floorDist: await measure(floorDistUrl, onRun.headers),
    }),
    () => measure(bareUrl, {}),
  );
  const ended = loadNow();

  type Side = 'on' | 'off' | 'dist';
  const rps = (side: Side) => median(pairs.map((p) => p.docflow[side].rps));
  const p50 = (side: Side) => median(pairs.map((p) => p.docflow[side].p50));
  const p99 = (side: Side) => median(pairs.map((p) => p.docflow[side].p99));
  const sum = (side: Side, f: (l: LoadFigures) => number) =>
    pairs.reduce((n, p) => n + f(p.docflow[side]), 0);
  const ratio = (side: Side) =>
    medianRatio(
      pairs,
      (d) => d[side].rps,
      (r) => r.rps,
    );
  const ref = {
    rps: median(pairs.map((p) => p.reference.rps)),
    p50: median(pairs.map((p) => p.reference.p50)),
    p99: median(pairs.map((p) => p.reference.p99)),
    requests: pairs.reduce((n, p) => n + p.reference.requests, 0),
    failures: pairs.reduce((n, p) => n + p.reference.failures, 0),
  };
  const onOff = medianRatio(
    pairs,
    (d) => d.on.rps / d.off.rps,
    () => 1,
  );
  // Each floor beside the docflow target doing the same: its rate, p99, share of the reference, and
  // docflow's share of it (medians of the rounds).
  type FloorSide = 'floor' | 'floorOff' | 'floorDist';
  const floorOf = (side: FloorSide, docflowSide: Side) => ({
    rps: median(pairs.map((p) => p.docflow[side].rps)),
    p99: median(pairs.map((p) => p.docflow[side].p99)),
    failures: pairs.reduce((n, p) => n + p.docflow[side].failures, 0),
    ofReference: medianRatio(
      pairs,
      (d) => d[side].rps,
      (r) => r.rps,
    ),
    docflowOfIt: medianRatio(
      pairs,
      (d) => d[docflowSide].rps / d[side].rps,
      () => 1,
    ),
    rounds: pairList(
      pairs,
      (d) => d[side].rps,
      (r) => r.rps,
    ),
  });
  const floors = {
    on: floorOf('floor', 'on'),
    off: floorOf('floorOff', 'off'),
    dist: floorOf('floorDist', 'dist'),
  };
  const cell = (side: Side, text: string) => (side === 'dist' && !distRun ? 'not run' : text);
  const floorRow = (label: string, side: Side, target: number | undefined) => {
    const f = floors[side];
    const against =
      target === undefined
        ? ''
        : `target ${pct(target, 1)}: ${f.ofReference >= target ? 'the floor reaches it' : '**the floor is below it**'}`;
    return `| ${label} | ${fixed(f.rps, 0)} | ${fixed(f.p99)} | ${f.failures} | **${pct(f.ofReference, 1)}** | ${cell(side, pct(f.docflowOfIt, 1))} | ${against} |`;
  };
  const met = ratio('on') >= 0.4 && p99('on') <= 20;
  const distMet = ratio('dist') >= 0.25;
  const row = (label: string, f: (side: Side) => string, reference: string, rest: string) =>
    `| ${label} | ${f('on')} | ${f('off')} | ${cell('dist', f('dist'))} | ${reference} | ${rest} |`;

  for (const stop of stops.splice(0).reverse()) await stop();
  /** The GET once more on a target started with the profiling env, its `services` profiled once warm. */
  const profiledGet = (start: (env: Record<string, string>) => Promise<Target>, services?: string[]) =>
    profiledRun(
      PROFILE_S,
      async (env) => {
        const target = await start(env);
        try {
          const run = await seedDocument(target);
          const pids = target.pids();
          for (const name of services ?? Object.keys(pids)) restartProfile(pids[name]!);
          await measure(run.url, run.headers, PROFILE_S);
        } finally {
          await target.stop();
        }
      },
      'warm',
      services,
    );
  const profile = met ? '' : await profiledGet(embeddedTarget);
  const distributedProfile =
    !distRun || distMet
      ? ''
      : await profiledGet(
          (env) =>
            startDistributed({ env: { ...NO_EXPORTER, ...env }, logDir: newLogDir('get-document-profiled') }),
          PROFILED_SERVICES,
        );

  const body = `## GET document: gateway (embedded, telemetry on and off; distributed) beside bare Hono

Command: \`pnpm bench\` (this part: \`pnpm exec tsx bench/get-document.ts\`) · ${new Date().toISOString()} · ${machine()} · ${started}, at the end ${ended}
autocannon, ${CONNECTIONS} connections, 127.0.0.1, ${WARMUP_S} s warm-up per target, then ${PAIRS} rounds of ${DURATION_S} s per target,
docflow's three targets and the floors (below) against the reference, taking turns (the reference first in every second round); each figure is the median
over the rounds, each ratio the median of the per-round ratios. \`GET /api/v2/docForm/{id}\` as the admin service account
(API key auth, role check, document read), \`LOG_LEVEL=info\`, logs written to files. Embedded: one process, with metrics and
tracing on as shipped (no OTLP exporter: spans get ids, none is recorded) and with \`DOCFLOW_TELEMETRY=off\`. Distributed:
telemetry on, each service its own process, the gateway calling the document service over HTTP (keep-alive), ${distributedSkip ?? 'on the running Kafka and MinIO of `.infra/env`'}.
Reference: a bare Hono route on @hono/node-server in its own process returning the same JSON document
(${JSON.stringify(onRun.document).length} bytes). All targets run side by side; the load generator shares the machine's 2 cores with them.

| measure | embedded, telemetry on | embedded, telemetry off | distributed, telemetry on | bare Hono (reference) | target |
|---|---|---|---|---|---|
${row('requests/s', (s) => fixed(rps(s), 0), fixed(ref.rps, 0), '')}
${row('/ reference (median of rounds)', (s) => pct(ratio(s), 1), '', `embedded ≥ 40%: ${verdict(ratio('on') >= 0.4)}; distributed ≥ 25%: ${distRun ? verdict(distMet) : 'not run'}`)}
${row('p50 latency, ms', (s) => fixed(p50(s)), fixed(ref.p50), '')}
${row('p99 latency, ms', (s) => fixed(p99(s)), fixed(ref.p99), `embedded ≤ 20 ms: ${verdict(p99('on') <= 20)}`)}
${row('requests (failures)', (s) => `${sum(s, (l) => l.requests)} (${sum(s, (l) => l.failures)})`, `${ref.requests} (${ref.failures})`, '')}

Rounds (requests/s, docflow/reference): embedded on ${pairList(
    pairs,
    (d) => d.on.rps,
    (r) => r.rps,
  )}; off ${pairList(
    pairs,
    (d) => d.off.rps,
    (r) => r.rps,
  )}${
    distRun
      ? `; distributed ${pairList(
          pairs,
          (d) => d.dist.rps,
          (r) => r.rps,
        )}`
      : ''
  }.
Telemetry overhead (embedded): ${fixed((1 - onOff) * 100)}% of the requests per second with it off (median of rounds).

**The floors** (bench/get-floor.ts, measured in the same rounds): what no docflow GET can leave out, in one Hono app per
process: kit's tracing, request-context and metrics middleware (a server span with telemetry on, the ids, one access-log
line), the API key's SHA-256 looked up and the role checked, the query validated by \`DocQuery\`, one event-store query
(the real SQLite adapter) for events newer than the folded state, the ETag and the document's JSON. Embedded: all of it in
one app, no gateway/service split. Distributed: an edge process (the middleware and authentication) calling a service
process (the middleware, the internal token and principal checked, the read) over HTTP with kit's keep-alive client.

| floor | requests/s | p99, ms | failures | of bare Hono | docflow at it | |
|---|---|---|---|---|---|---|
${floorRow('embedded, telemetry on', 'on', 0.4)}
${floorRow('embedded, telemetry off', 'off', undefined)}
${floorRow('distributed, telemetry on', 'dist', 0.25)}

Rounds (floor/reference): on ${floors.on.rounds}; off ${floors.off.rounds}; distributed ${floors.dist.rounds}.
${profile}${distributedProfile && `\nDistributed, the same GET:\n${distributedProfile}`}`;
  writeSection('get-document', body);
  console.log(body);
} finally {
  for (const stop of stops.reverse()) await stop();
}
