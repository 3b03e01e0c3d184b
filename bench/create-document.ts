/**
 * Create-document benchmark: POST /api/v2/docForm/form/memo with one 10 KB attachment through the
 * gateway of embedded docflow (a child process), autocannon with prebuilt multipart bodies (each a
 * different file, so the content-addressed blob store writes every one). Reference: the engine writes
 * such a create implies, done directly and one after another: one SQLite append (WAL,
 * synchronous=FULL, one transaction) and one blob file written, fsynced, renamed into place and its
 * directory fsynced. Bounded by count and time.
 */
import { randomBytes, randomUUID } from 'node:crypto';
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
import { startEmbedded } from '../tests/support/targets';
import { profiledRun } from './profile';
import { machine, writeSection } from './results';
import { fixed, load, loadNote, newLogFile, pct, verdict } from './support';

const FILE_BYTES = 10 * 1024;
const CONNECTIONS = 10;
const DURATION_S = 10;
const PROFILE_S = 4;
/** Distinct prebuilt bodies; more than a run sends at the rates seen here. */
const BODIES = 6_000;
const RAW_CREATES = 2_000;
const RAW_MAX_MS = 20_000;
const BOUNDARY = 'docflowbench7e3f';

function multipartBody(i: number): Buffer {
  const docForm = JSON.stringify({
    valuesByTags: { subject: `Bench ${i}`, body: 'created by bench' },
    _tags: ['bench'],
  });
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="docForm"\r\n\r\n${docForm.padEnd(120)}\r\n` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="scan.bin"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    randomBytes(FILE_BYTES),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

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

async function docflowRun(env: Record<string, string>, seconds: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'docflow-bench-data-'));
  const docflow = await startEmbedded({ env, dataDir, logFile: newLogFile('create-document') });
  try {
    const before = eventsByService(dataDir);
    let next = 0;
    const figures = await load({
      url: `${docflow.baseUrl}/api/v2/docForm/form/memo`,
      method: 'POST',
      connections: CONNECTIONS,
      duration: seconds,
      headers: {
        authorization: `Bearer ${docflow.adminKey}`,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      },
      setupRequest: (request: Request) => ({ ...request, body: bodies[next++ % BODIES]! }),
    });
    await docflow.stop();
    const after = eventsByService(dataDir);
    const created = Math.max(1, figures.okPerSecond * seconds);
    const perDocument = Object.entries(after)
      .map(([service, n]) => `${service} ${fixed((n - (before[service] ?? 0)) / created, 2)}`)
      .join(', ');
    return { figures, perDocument };
  } finally {
    await docflow.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const started = loadNote();
const bodies = Array.from({ length: BODIES }, (_, i) => multipartBody(i));
console.log(`docflow: creates with a ${FILE_BYTES} byte file, ${CONNECTIONS} connections, ${DURATION_S} s`);
const { figures: docflow, perDocument } = await docflowRun({}, DURATION_S);

console.log(`raw engine writes: up to ${RAW_CREATES} creates`);
const dir = mkdtempSync(join(tmpdir(), 'docflow-bench-create-'));
let raw: { perSecond: number; done: number; p99: number };
try {
  const db = new Database(join(dir, 'events.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(
    'CREATE TABLE events (position INTEGER PRIMARY KEY AUTOINCREMENT, stream_id TEXT NOT NULL, data TEXT NOT NULL) STRICT',
  );
  const insert = db.prepare('INSERT INTO events (stream_id, data) VALUES (?, ?)');
  const blobs = join(dir, 'blobs');
  mkdirSync(blobs);
  const latencies: number[] = [];
  const t0 = performance.now();
  while (latencies.length < RAW_CREATES && performance.now() - t0 < RAW_MAX_MS) {
    const i = latencies.length;
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
  db.close();
  const sorted = latencies.sort((a, b) => a - b);
  raw = {
    perSecond: latencies.length / ((performance.now() - t0) / 1000),
    done: latencies.length,
    p99: sorted[Math.ceil(sorted.length * 0.99) - 1]!,
  };
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const ratio = docflow.okPerSecond / raw.perSecond;
const profile = ratio >= 0.5 ? '' : await profiledRun(PROFILE_S, (env) => docflowRun(env, PROFILE_S));
const body = `## Create document with a 10 KB file: docflow beside the raw engine writes

Command: \`pnpm bench\` (this part: \`pnpm exec tsx bench/create-document.ts\`) · ${new Date().toISOString()} · ${machine()} · ${started}
Docflow: embedded mode in its own process, \`POST /api/v2/docForm/form/memo\` (multipart: docForm JSON + one
${FILE_BYTES}-byte random file, a different one per request from ${BODIES} prebuilt bodies), autocannon ${CONNECTIONS}
connections for ${DURATION_S} s on 127.0.0.1; only 201 answers count. Reference: what one create implies at the
engines, done directly in one loop (up to ${RAW_CREATES} times or ${RAW_MAX_MS / 1000} s): the file written, fsynced,
renamed, its directory fsynced, then one SQLite append in its own transaction (WAL, \`synchronous=FULL\`).

| measure | docflow | raw engine writes (reference) | ratio | target |
|---|---|---|---|---|
| documents/s | ${fixed(docflow.okPerSecond, 1)} | ${fixed(raw.perSecond, 1)} | ${pct(docflow.okPerSecond, raw.perSecond)} | ≥ 50%: ${verdict(ratio >= 0.5)} |
| p50 latency, ms | ${fixed(docflow.p50)} | | | |
| p99 latency, ms | ${fixed(docflow.p99)} (${CONNECTIONS} in flight) | ${fixed(raw.p99, 2)} (one at a time) | | |
| requests (failures) | ${docflow.requests} (${docflow.failures}) | ${raw.done} | | |

Events appended per created document, by service store (each append one fsynced SQLite commit): ${perDocument}.
${profile}`;
writeSection('create-document', body);
console.log(body);
