/**
 * An earlier commit of this repository, checked out as a git worktree in a cache directory and
 * installed, then started embedded with its own `pnpm start` (upgrade tests write a data directory
 * with it). The checkout is made once per machine and reused; made from nothing when absent.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { type Proc, REPO_ROOT, startProcess } from './process';

/** Written once `pnpm install` of a checkout succeeded: a checkout without it is made again. */
const READY_MARK = join('node_modules', '.docflow-release-ready');
const INSTALL_TIMEOUT_MS = 300_000;
const GIT_TIMEOUT_MS = 60_000;

/** Where the checkout of `commit` is kept between runs: under the cache infra/local/lib.sh uses. */
export function releaseDir(commit: string): string {
  const cache =
    process.env.DOCFLOW_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'docflow');
  return join(cache, 'upgrade', commit);
}

function git(args: string[]): { ok: boolean; out: string } {
  const r = spawnSync('git', ['-C', REPO_ROOT, ...args], { encoding: 'utf8', timeout: GIT_TIMEOUT_MS });
  return { ok: r.status === 0, out: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim() };
}

/**
 * Why `commit` cannot be checked out here, or undefined when it can (or its checkout is cached).
 * Only missing history is a reason: a shallow clone, or no git repository at all.
 */
export function releaseSkipReason(commit: string): string | undefined {
  if (existsSync(join(releaseDir(commit), READY_MARK))) return undefined;
  if (!git(['rev-parse', '--git-dir']).ok)
    return `no git repository at ${REPO_ROOT}: the previous release ${commit} cannot be checked out`;
  if (git(['cat-file', '-e', `${commit}^{commit}`]).ok) return undefined;
  if (git(['rev-parse', '--is-shallow-repository']).out === 'true')
    return `a shallow clone lacks the previous release ${commit} (git fetch --unshallow brings it)`;
  return undefined; // not shallow: the commit must be there, and its absence fails the test
}

export interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `command` in `cwd` with `env` added, killed after `timeoutMs`. */
function exec(
  command: string[],
  cwd: string,
  timeoutMs: number,
  env: Record<string, string> = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
    });
    const out = { stdout: '', stderr: '' };
    child.stdout.on('data', (c: Buffer) => (out.stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (out.stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, ...out }));
  });
}

/** Runs `command` in `cwd`; rejects with its output when it fails or outlasts `timeoutMs`. */
async function run(command: string[], cwd: string, timeoutMs: number): Promise<void> {
  const r = await exec(command, cwd, timeoutMs);
  if (r.code !== 0)
    throw new Error(
      `${command.join(' ')} in ${cwd}: ${r.signal ?? `exit ${r.code}`}\n${(r.stdout + r.stderr).slice(-3000)}`,
    );
}

/** Removes a checkout and its worktree registration (if it has one). */
function removeCheckout(path: string): void {
  git(['worktree', 'remove', '--force', path]);
  rmSync(path, { recursive: true, force: true });
  git(['worktree', 'prune']);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the half-built checkouts beside `dir` of runs that were killed (their process is gone). */
function removeAbandonedBuilds(dir: string): void {
  const prefix = `${basename(dir)}.building-`;
  for (const name of readdirSync(join(dir, '..')))
    if (name.startsWith(prefix) && !isAlive(Number(name.slice(prefix.length))))
      removeCheckout(join(dir, '..', name));
  git(['worktree', 'prune']);
}

/**
 * The installed checkout of `commit`: the cached one, or a new git worktree installed from pnpm's
 * store (`--offline`), falling back to the registry. It is built beside its place and moved there
 * when complete, so a run cut short or a second run at the same time never leaves half a checkout.
 * (pnpm's bin shims keep the build path in NODE_PATH, a fallback the moved checkout never needs.)
 */
export async function prepareRelease(commit: string): Promise<string> {
  const dir = releaseDir(commit);
  if (existsSync(join(dir, READY_MARK))) return dir;
  mkdirSync(join(dir, '..'), { recursive: true });
  removeAbandonedBuilds(dir);
  const building = `${dir}.building-${process.pid}`;
  await run(
    ['git', '-C', REPO_ROOT, 'worktree', 'add', '--force', '--detach', building, commit],
    REPO_ROOT,
    GIT_TIMEOUT_MS,
  );
  try {
    await run(['pnpm', 'install', '--frozen-lockfile', '--offline'], building, INSTALL_TIMEOUT_MS).catch(() =>
      run(['pnpm', 'install', '--frozen-lockfile'], building, INSTALL_TIMEOUT_MS),
    );
    writeFileSync(join(building, READY_MARK), `${commit}\n`);
    if (existsSync(join(dir, READY_MARK))) throw new Error('another run put its checkout in place first');
    if (existsSync(dir)) removeCheckout(dir); // half a checkout, left by hand or by an older layout
    await run(['git', '-C', REPO_ROOT, 'worktree', 'move', building, dir], REPO_ROOT, GIT_TIMEOUT_MS);
  } catch (error) {
    // Another run may have put its checkout in place meanwhile: that one serves.
    removeCheckout(building);
    if (existsSync(join(dir, READY_MARK))) return dir;
    throw error;
  }
  return dir;
}

export interface StartedRelease {
  proc: Proc;
  baseUrl: string;
}

/**
 * The checkout in `dir` started as its README starts it (`pnpm start`: embedded, every service in
 * one process) on 127.0.0.1 and a port of its own, with `env` (DOCFLOW_DATA_DIR, DOCFLOW_ADMIN_KEY).
 */
export async function startRelease(
  dir: string,
  env: Record<string, string>,
  name: string,
): Promise<StartedRelease> {
  const proc = startProcess(['pnpm', '--dir', dir, 'start'], { PORT: '0', HOST: '127.0.0.1', ...env }, name);
  const ready = await proc.waitForLog((l) => l.msg === 'docflow listening');
  return { proc, baseUrl: `http://127.0.0.1:${ready.port}` };
}

/** A script of the checkout in `dir`'s package.json (`pnpm -s <script>`), run with `env` added. */
export function runScript(dir: string, script: string, env: Record<string, string>, timeoutMs = 120_000) {
  return exec(['pnpm', '--dir', dir, '-s', script], dir, timeoutMs, env);
}
