/**
 * CPU milliseconds per create (POST /api/v2/docForm/form/memo with a 10 KB file) of the embedded
 * docflow process: utime + stime from /proc over a fixed number of creates (stime, the kernel's part,
 * also apart), 10 connections, counted until the work the creates set off (projections, bus
 * deliveries, consumers) has settled. Load from other work on the machine moves it far less than
 * creates per second. `CREATE_CPU_REQUESTS` (default 1500) per round, `CREATE_CPU_ROUNDS` (3);
 * `GET_CPU_PROFILE_DIR`-style profiling with `CREATE_CPU_PROFILE_DIR`. Run it on two checkouts in
 * turns to compare code.
 *
 * @example CREATE_CPU_ROUNDS=4 pnpm exec tsx bench/create-cpu.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon, { type Request } from 'autocannon';
import { startEmbedded } from '../tests/support/targets';
import { BOUNDARY, multipartBody } from './create-bodies';
import { cpuBenchEnv, restartProfile } from './profile';
import { median, newLogFile, processCpuMicros } from './support';

const REQUESTS = Number(process.env.CREATE_CPU_REQUESTS ?? 1500);
const ROUNDS = Number(process.env.CREATE_CPU_ROUNDS ?? 3);
const PROFILE_DIR = process.env.CREATE_CPU_PROFILE_DIR;
/** Settled: the process used less than this share of a core over SETTLE_MS. */
const SETTLE_MS = 300;
const SETTLE_SHARE = 0.05;
const SETTLE_MAX_MS = 30_000;

const bodies = Array.from({ length: REQUESTS * (ROUNDS + 1) }, (_, i) => multipartBody(i));
const dataDir = mkdtempSync(join(tmpdir(), 'docflow-bench-create-cpu-'));
const target = await startEmbedded({
  dataDir,
  env: cpuBenchEnv(PROFILE_DIR),
  logFile: newLogFile('create-cpu'),
});
const pid = target.proc.child.pid!;
const cpu = () => {
  const { user, sys } = processCpuMicros(pid);
  return user + sys;
};

/** Waits until the process is (nearly) idle: the creates' background work is done. */
async function settled(): Promise<void> {
  const started = performance.now();
  let last = cpu();
  while (performance.now() - started < SETTLE_MAX_MS) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const now = cpu();
    if (now - last < SETTLE_MS * 1000 * SETTLE_SHARE) return;
    last = now;
  }
  throw new Error(`docflow did not settle within ${SETTLE_MAX_MS} ms`);
}

let next = 0;
const run = (amount: number) =>
  autocannon({
    url: `${target.baseUrl}/api/v2/docForm/form/memo`,
    method: 'POST',
    connections: 10,
    amount,
    timeout: 10,
    headers: {
      authorization: `Bearer ${target.adminKey}`,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    },
    requests: [{ setupRequest: (request: Request) => ({ ...request, body: bodies[next++]! }) }],
  });

try {
  await run(REQUESTS);
  await settled();
  if (PROFILE_DIR) restartProfile(pid);
  const perCreate: number[] = [];
  const kernelPerCreate: number[] = [];
  const rates: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const before = processCpuMicros(pid);
    const result = await run(REQUESTS);
    await settled();
    if (result.non2xx + result.errors > 0) throw new Error(`failures: ${result.non2xx} ${result.errors}`);
    const after = processCpuMicros(pid);
    const msPerCreate = (micros: number) => micros / 1000 / result.requests.total;
    perCreate.push(msPerCreate(after.user + after.sys - before.user - before.sys));
    kernelPerCreate.push(msPerCreate(after.sys - before.sys));
    rates.push(result.requests.average);
  }
  console.log(
    `cpu ms/create ${perCreate.map((n) => n.toFixed(2)).join(' ')} (median ${median(perCreate).toFixed(2)}; in the kernel ${median(kernelPerCreate).toFixed(2)}); creates/s ${rates.map((n) => n.toFixed(0)).join(' ')}`,
  );
} finally {
  await target.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
