/**
 * CPU microseconds per GET request of the embedded docflow process (utime + stime from /proc over a
 * fixed number of requests, 50 connections): a figure that load from other work on the machine moves
 * far less than requests per second. `GET_CPU_REQUESTS` (default 20000) per round, `GET_CPU_ROUNDS` (3);
 * `DOCFLOW_TELEMETRY` and `LOG_LEVEL` are passed on. Run it on two checkouts in turns to compare code.
 *
 * @example GET_CPU_ROUNDS=4 pnpm exec tsx bench/get-cpu.ts
 */
import autocannon from 'autocannon';
import { createDoc } from '../tests/support/documents';
import { startEmbedded } from '../tests/support/targets';
import { cpuBenchEnv, restartProfile } from './profile';
import { processCpuMicros as cpuMicros, median, newLogFile } from './support';

const REQUESTS = Number(process.env.GET_CPU_REQUESTS ?? 20000);
const ROUNDS = Number(process.env.GET_CPU_ROUNDS ?? 3);
/** A CPU profile of the measured rounds (start-up and warm-up left out) is written here. */
const PROFILE_DIR = process.env.GET_CPU_PROFILE_DIR;

const target = await startEmbedded({
  env: cpuBenchEnv(PROFILE_DIR),
  logFile: newLogFile('get-cpu'),
});
try {
  const created = await createDoc(target.baseUrl, target.adminKey, 'memo', {
    docForm: { valuesByTags: { subject: 'Budget 2027', body: 'Plan for the next year' }, _tags: ['finance'] },
    files: [{ name: 'plan.txt', content: 'a small attachment' }],
  });
  if (created.status !== 201) throw new Error(`create: ${created.status}`);
  const url = `${target.baseUrl}/api/v2/docForm/${created.body._id}`;
  const headers = { authorization: `Bearer ${target.adminKey}` };
  const pid = target.proc.child.pid!;
  const run = (amount: number) => autocannon({ url, headers, connections: 50, amount, timeout: 10 });
  await run(REQUESTS / 2);
  if (PROFILE_DIR) restartProfile(pid);
  const perRequest: number[] = [];
  const kernelPerRequest: number[] = [];
  const rates: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const before = cpuMicros(pid);
    const result = await run(REQUESTS);
    const after = cpuMicros(pid);
    if (result.non2xx + result.errors > 0) throw new Error(`failures: ${result.non2xx} ${result.errors}`);
    const requests = result.requests.total;
    perRequest.push((after.user + after.sys - before.user - before.sys) / requests);
    kernelPerRequest.push((after.sys - before.sys) / requests);
    rates.push(result.requests.average);
  }
  console.log(
    `cpu µs/request ${perRequest.map((n) => n.toFixed(0)).join(' ')} (median ${median(perRequest).toFixed(0)}, min ${Math.min(...perRequest).toFixed(0)}; in the kernel ${median(kernelPerRequest).toFixed(0)}); req/s ${rates.map((n) => n.toFixed(0)).join(' ')}`,
  );
} finally {
  await target.stop();
}
