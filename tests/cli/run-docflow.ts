/** Runs the real `docflow` bin as a user would: its own process, a working directory, an environment. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/process';

export const BIN = join(REPO_ROOT, 'packages', 'cli', 'bin', 'docflow.mjs');
const RUN_TIMEOUT_MS = 120_000;

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `docflow …args` in `cwd` (default: the repository), with none of this process's DOCFLOW_* settings
 * nor pnpm's INIT_CWD unless given in `env`.
 */
export function docflow(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('DOCFLOW_') && name !== 'INIT_CWD'),
  );
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...inherited, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const killer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
  return new Promise<Run>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(killer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** The JSON a successful run printed; fails the test with its stderr otherwise. */
export function answer(run: Run): any {
  if (run.status !== 0) throw new Error(`docflow exited ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}
