/**
 * CPU profiles for missed targets: a process started with `profileEnv(dir)` writes a V8 .cpuprofile
 * into `dir` when it exits (bench/cpu-profile.ts); `summarizeProfiles(dir)` turns it into the markdown lines RESULTS.md shows
 * (self time by module and by function).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
}

const PRELOAD = new URL('./cpu-profile.ts', import.meta.url).pathname;

/** Environment that makes a Node child process (started with tsx) write a CPU profile into `dir` on exit. */
export function profileEnv(dir: string): Record<string, string> {
  return {
    BENCH_CPU_PROFILE_DIR: dir,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import tsx --import ${PRELOAD}`.trim(),
  };
}

/**
 * The docflow process of a CPU-per-request benchmark: no exporter, telemetry and log level as this
 * process was given them (default on and info), and a CPU profile into `profileDir` when given.
 */
export function cpuBenchEnv(profileDir: string | undefined): Record<string, string> {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: '',
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '',
    DOCFLOW_TELEMETRY: process.env.DOCFLOW_TELEMETRY ?? 'on',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    ...(profileDir ? profileEnv(profileDir) : {}),
  };
}

/** Where a script lives: a package under node_modules, a workspace folder, or node itself. */
function moduleOf(url: string): string {
  if (!url) return '(native / GC / idle)';
  const pkg = url.match(/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1]!;
  const own = url.match(/\/(services\/[^/]+|packages\/[^/]+|bench)\//);
  if (own) return own[1]!;
  return url.startsWith('node:') ? 'node internals' : url.replace(/^file:\/\//, '');
}

function top(counts: Map<string, number>, total: number, n: number): string {
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, hits]) => `${((hits / total) * 100).toFixed(1)}% ${name}`)
    .join('; ');
}

/** Self time of the profiles, by module and by function, as two markdown list items. */
function summarize(profiles: Iterable<CpuProfile>, n = 8): string {
  const byModule = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const profile of profiles) {
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    for (const id of profile.samples) {
      const frame = nodes.get(id)?.callFrame;
      if (!frame || frame.functionName === '(idle)') continue;
      total++;
      const module = moduleOf(frame.url);
      byModule.set(module, (byModule.get(module) ?? 0) + 1);
      const fn = `${frame.functionName || '(anonymous)'} (${module})`;
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + 1);
    }
  }
  if (total === 0) return '- no CPU profile was written';
  return `- self time by module (${total} samples, idle left out): ${top(byModule, total, n)}
- self time by function: ${top(byFunction, total, n)}`;
}

/** Self time of every profile in `dir` (summarize), or of the processes running service `name` only. */
function summarizeProfiles(dir: string, n = 8, name?: string): string {
  const files = readdirSync(dir).filter(
    (f) => f.endsWith('.cpuprofile') && (name === undefined || f.startsWith(`${name}-`)),
  );
  return summarize(
    files.map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile),
    n,
  );
}

/**
 * `run()` under V8's CPU profiler in this process (for a benchmark whose subject runs in-process),
 * summarized as summarizeProfiles does; what `run` returns is dropped.
 */
export async function profileInProcess(run: () => Promise<unknown>): Promise<string> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    // Every 100 µs (V8's default is 1 ms): a benchmark's subject may run for well under a second.
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    await run();
    const { profile } = await session.post('Profiler.stop');
    return summarize([profile as unknown as CpuProfile]);
  } finally {
    session.disconnect();
  }
}

/** Makes a process started with `profileEnv` drop its profile so far and record afresh (SIGUSR2). */
export function restartProfile(pid: number): void {
  process.kill(pid, 'SIGUSR2');
}

/**
 * Runs `run(env)` with the env that makes its docflow processes write CPU profiles; returns what `run`
 * returned and the processes' self time: of every process, or of each of `services` apart (the
 * others left out).
 */
export async function profileProcesses<T>(
  run: (env: Record<string, string>) => T | Promise<T>,
  services?: readonly string[],
): Promise<{ result: T; summary: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-bench-prof-'));
  try {
    const result = await run(profileEnv(dir));
    const summary = services
      ? services
          .map((service) => `The ${service} process:\n\n${summarizeProfiles(dir, 8, service)}`)
          .join('\n\n')
      : summarizeProfiles(dir);
    return { result, summary };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs `run(env)` once more with a CPU-profiled docflow (the env goes to its process) and returns the
 * paragraph RESULTS.md shows under a missed target.
 */
export async function profiledRun(
  seconds: number,
  run: (env: Record<string, string>) => Promise<unknown>,
  /** `warm`: `run` calls `restartProfile` once docflow started and warmed up. */
  from: 'start' | 'warm' = 'start',
  /** Distributed: the services whose processes are summed, each apart (the others are left out). */
  services?: readonly string[],
): Promise<string> {
  console.log(`again, CPU-profiled, ${seconds} s`);
  const { summary } = await profileProcesses(run, services);
  const span =
    from === 'warm'
      ? `${seconds} s of the same load after start-up and a warm-up`
      : `start-up and a further\n${seconds} s of the same load`;
  return `\nA target was missed, so the run profiled ${services ? `the ${services.join(' and ')} processes` : 'the docflow process'} (V8 CPU profile over ${span}; profiling
slows it down, the shares are what counts):

${summary}
`;
}
