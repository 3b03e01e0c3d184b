/**
 * Create-document benchmark: POST /api/v2/docForm/form/memo with one 10 KB attachment through the
 * gateway of embedded docflow (a child process), autocannon with prebuilt multipart bodies (each a
 * different file, so the content-addressed blob store writes every one). Reference: the engine writes
 * such a create implies, done directly and one after another: one SQLite append (WAL,
 * synchronous=FULL, one transaction) and one blob file written, fsynced, renamed into place and its
 * directory fsynced. Docflow and the reference alternate in PAIRS rounds; bounded by count and time.
 */
import { randomUUID } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Request } from 'autocannon';
import Database from 'better-sqlite3';
import { startTsProcess } from '../tests/support/process';
import { startEmbedded } from '../tests/support/targets';
import { BOUNDARY, FILE_BYTES, multipartBody } from './create-bodies';
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
  newLogFile,
  type Pair,
  pairList,
  pairMedians,
  pct,
  percentile,
  verdict,
} from './support';

const CONNECTIONS = 10;
const WARMUP_S = 2;
const DURATION_S = 4;
const PAIRS = 5;
const PROFILE_S = 4;
/** Distinct prebuilt bodies; more than a run sends at the rates seen here. */
const BODIES = 6_000;
/** At most this many raw creates a round (the round's seconds bound it too). */
const RAW_CREATES = 2_000;

/** Events in each service's store of a stopped embedded data dir. */
function eventsByService(dataDir: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const service of readdirSync(dataDir)) {
    const file = join(dataDir, service, 'events.db');
    if (!existsSync(file)) continue;
    const db = new Database(file, { readonly: true });
    counts[service] = db.prepare<[], number>('SELECT COUNT(*) FROM events').pluck().get() ?? 0;
    db.close();
  }
  return counts;
}

/** `run(seconds)`: creates against `baseUrl`, each with the next of the prebuilt bodies. */
function creates(baseUrl: string, adminKey: string) {
  let next = 0;
  return (seconds: number) =>
    load({
      url: `${baseUrl}/api/v2/docForm/form/memo`,
      method: 'POST',
      connections: CONNECTIONS,
      duration: seconds,
      headers: {
        authorization: `Bearer ${adminKey}`,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      },
      setupRequest: (request: Request) => ({ ...request, body: bodies[next++ % BODIES]! }),
    });
}

/** Embedded docflow on a fresh data dir, and a `run(seconds)` of creates against it. */
async function startDocflow(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'docflow-bench-data-'));
  const docflow = await startEmbedded({ env, dataDir, logFile: newLogFile('create-document') });
  return {
    dataDir,
    adminKey: docflow.adminKey,
    pid: docflow.proc.child.pid!,
    run: creates(docflow.baseUrl, docflow.adminKey),
    stop: () => docflow.stop(),
    /** After `stop`: the data dir is removed. */
    remove: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** The create's floor (bench/create-floor.ts) in its own process, and a `run(seconds)` against it. */
async function startFloor(adminKey: string) {
  const proc = startTsProcess('bench/create-floor.ts', { FLOOR_API_KEY: adminKey }, 'create floor', {
    logFile: newLogFile('create-floor'),
  });
  const listening = await proc.waitForLog((l) => l.msg === 'create floor listening');
  return { run: creates(`http://127.0.0.1:${listening.port}`, adminKey), stop: () => proc.stop() };
}

/** The raw engine writes of one create, one after another, up to RAW_CREATES or `seconds`. */
function rawEngine(dir: string) {
  const db = new Database(join(dir, 'events.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(
    'CREATE TABLE events (position INTEGER PRIMARY KEY AUTOINCREMENT, stream_id TEXT NOT NULL, data TEXT NOT NULL) STRICT',
  );
  const insert = db.prepare('INSERT INTO events (stream_id, data) VALUES (?, ?)');
  const blobs = join(dir, 'blobs');
  mkdirSync(blobs);
  let n = 0;
  return {
    run(seconds: number) {
      const latencies: number[] = [];
      const t0 = performance.now();
      while (latencies.length < RAW_CREATES && performance.now() - t0 < seconds * 1000) {
        const i = n++;
        const op = performance.now();
        const content = bodies[i % BODIES]!;
        const tmp = join(blobs, `${randomUUID()}.tmp`);
        const fd = openSync(tmp, 'wx');
        writeSync(fd, content, 0, FILE_BYTES);
        fsyncSync(fd);
        closeSync(fd);
        renameSync(tmp, join(blobs, `blob-${i}`));
        const dirFd = openSync(blobs, 'r');
        fsyncSync(dirFd);
        closeSync(dirFd);
        db.transaction(() => insert.run(`docForm-${i}`, content.subarray(0, 800).toString('base64')))();
        latencies.push(performance.now() - op);
      }
      return {
        perSecond: latencies.length / ((performance.now() - t0) / 1000),
        done: latencies.length,
        p99: percentile(latencies, 99),
      };
    },
    close: () => db.close(),
  };
}

const started = loadNote();
const bodies = Array.from({ length: BODIES }, (_, i) => multipartBody(i));
console.log(
  `creates with a ${FILE_BYTES} byte file: docflow (${CONNECTIONS} connections) and the raw engine writes, ${PAIRS} pairs of ${DURATION_S} s`,
);
const docflow = await startDocflow({});
const floor = await startFloor(docflow.adminKey);
const dir = mkdtempSync(join(tmpdir(), 'docflow-bench-create-'));
let pairs: Array<
  Pair<{ docflow: LoadFigures; floor: LoadFigures }, { perSecond: number; done: number; p99: number }>
>;
let perDocument: string;
try {
  const raw = rawEngine(dir);
  await docflow.run(WARMUP_S);
  await floor.run(WARMUP_S);
  raw.run(WARMUP_S);
  const before = eventsByService(docflow.dataDir);
  pairs = await alternate(
    PAIRS,
    async () => ({ docflow: await docflow.run(DURATION_S), floor: await floor.run(DURATION_S) }),
    async () => raw.run(DURATION_S),
  );
  raw.close();
  await docflow.stop();
  const after = eventsByService(docflow.dataDir);
  const created = Math.max(
    1,
    pairs.reduce((n, p) => n + p.docflow.docflow.okPerSecond * DURATION_S, 0),
  );
  perDocument = Object.entries(after)
    .map(([service, n]) => `${service} ${fixed((n - (before[service] ?? 0)) / created, 2)}`)
    .join(', ');
} finally {
  await floor.stop();
  await docflow.stop();
  docflow.remove();
  rmSync(dir, { recursive: true, force: true });
}
const ended = loadNow();

const {
  docflow: docflowRate,
  reference: rawRate,
  ratio,
} = pairMedians(
  pairs,
  (d) => d.docflow.okPerSecond,
  (r) => r.perSecond,
);
const floorFigures = pairMedians(
  pairs,
  (d) => d.floor.okPerSecond,
  (r) => r.perSecond,
);
const docflowOfFloor = medianRatio(
  pairs,
  (d) => d.docflow.okPerSecond / d.floor.okPerSecond,
  () => 1,
);
const profile =
  ratio >= 0.5
    ? ''
    : await profiledRun(
        PROFILE_S,
        async (env) => {
          const profiled = await startDocflow(env);
          try {
            await profiled.run(WARMUP_S);
            restartProfile(profiled.pid);
            await profiled.run(PROFILE_S);
          } finally {
            await profiled.stop();
            profiled.remove();
          }
        },
        'warm',
      );
const body = `## Create document with a 10 KB file: docflow beside the raw engine writes

Command: \`pnpm bench\` (this part: \`pnpm exec tsx bench/create-document.ts\`) · ${new Date().toISOString()} · ${machine()} · ${started}, at the end ${ended}
Docflow: embedded mode in its own process, \`POST /api/v2/docForm/form/memo\` (multipart: docForm JSON + one
${FILE_BYTES}-byte random file, a different one per request from ${BODIES} prebuilt bodies), autocannon ${CONNECTIONS}
connections on 127.0.0.1; only 201 answers count. Reference: what one create implies at the
engines, done directly in one loop (up to ${RAW_CREATES} times a round): the file written, fsynced,
renamed, its directory fsynced, then one SQLite append in its own transaction (WAL, \`synchronous=FULL\`).
After a ${WARMUP_S} s warm-up of each, ${PAIRS} pairs of ${DURATION_S} s rounds, docflow and the reference taking turns (the reference
first in every second pair); figures are medians over the pairs, the ratio the median of the per-pair ratios.

| measure | docflow | raw engine writes (reference) | ratio | target |
|---|---|---|---|---|
| documents/s | ${fixed(docflowRate, 1)} | ${fixed(rawRate, 1)} | ${pct(ratio, 1)} | ≥ 50%: ${verdict(ratio >= 0.5)} |
| p50 latency, ms | ${fixed(median(pairs.map((p) => p.docflow.docflow.p50)))} | | | |
| p99 latency, ms | ${fixed(median(pairs.map((p) => p.docflow.docflow.p99)))} (${CONNECTIONS} in flight) | ${fixed(median(pairs.map((p) => p.reference.p99)), 2)} (one at a time) | | |
| requests (failures) | ${pairs.reduce((n, p) => n + p.docflow.docflow.requests, 0)} (${pairs.reduce((n, p) => n + p.docflow.docflow.failures, 0)}) | ${pairs.reduce((n, p) => n + p.reference.done, 0)} | | |

Pairs (documents/s, docflow/reference): ${pairList(
  pairs,
  (d) => d.docflow.okPerSecond,
  (r) => r.perSecond,
  1,
)}.

**The floor** (bench/create-floor.ts, its own process, the same bodies and ${CONNECTIONS} connections, measured in the same rounds):
what no docflow create can leave out, in one Hono app: kit's tracing, request-context and metrics middleware, the API key's
hash looked up and the role checked, the multipart body streamed through the document service's own parser, the file
streamed into the real local blob store (hashed, fsynced, renamed, directory fsynced), the docForm part validated by
\`DocFormCreate\`, one event appended to a new stream through the real SQLite event store, a 201 with the document's JSON; no
idempotency record, form read, service calls, workflow, relay or projection. **${fixed(floorFigures.docflow, 1)} documents/s:
${pct(floorFigures.ratio, 1)} of the raw engine writes** (target 50%: ${floorFigures.ratio >= 0.5 ? 'the floor reaches it' : '**the floor is below it**'}); p99
${fixed(median(pairs.map((p) => p.docflow.floor.p99)))} ms; ${pairs.reduce((n, p) => n + p.docflow.floor.failures, 0)} failures;
docflow at **${pct(docflowOfFloor, 1)} of the floor**. Pairs (floor/reference): ${pairList(
  pairs,
  (d) => d.floor.okPerSecond,
  (r) => r.perSecond,
  1,
)}.
Events appended per created document, by service store (each append one fsynced SQLite commit): ${perDocument}.
${profile}`;
writeSection('create-document', body);
console.log(body);
