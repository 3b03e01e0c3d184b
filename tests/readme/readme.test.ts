/**
 * README.md's examples run literally (issue 18): every ```sh block not marked norun, in file order, in
 * one `bash -euo pipefail` session against a fresh embedded instance started as `pnpm start` starts it,
 * with DOCFLOW_URL and KEY exported, from a scratch directory inside the repository (as a reader runs
 * them from their checkout). A failure names the block, the command and its README line.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT } from '../support/process';
import { startEmbedded, type Target } from '../support/targets';
import { runnableShellBlocks, type ShellBlock } from './shell-blocks';

const SESSION_TIMEOUT_MS = 300_000;

interface Session {
  script: string;
  /** README line of each script line (index: script line - 1); undefined for the harness's own lines. */
  readmeLines: (number | undefined)[];
}

/**
 * The blocks as one script. Before each block it writes `block <index>` to fd 3, and on a failing
 * command `command <script line> <command>`: the last `block` is the one that stopped the session.
 */
function sessionScript(blocks: ShellBlock[]): Session {
  const script = ['set -Eeuo pipefail', `trap 'printf "command %s %s\\n" "$LINENO" "$BASH_COMMAND" >&3' ERR`];
  const readmeLines: (number | undefined)[] = script.map(() => undefined);
  blocks.forEach((block, index) => {
    script.push(`printf 'block ${index}\\n' >&3`);
    readmeLines.push(undefined);
    block.lines.forEach((line, offset) => {
      script.push(line);
      readmeLines.push(block.line + offset);
    });
  });
  return { script: `${script.join('\n')}\n`, readmeLines };
}

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  progress: string[];
}

function runBash(scriptFile: string, cwd: string, env: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-euo', 'pipefail', scriptFile], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      timeout: SESSION_TIMEOUT_MS,
      killSignal: 'SIGKILL',
    });
    const out = { stdout: '', stderr: '', fd3: '' };
    child.stdout!.on('data', (c: Buffer) => (out.stdout += c.toString('utf8')));
    child.stderr!.on('data', (c: Buffer) => (out.stderr += c.toString('utf8')));
    child.stdio[3]!.on('data', (c: Buffer) => (out.fd3 += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({ code, signal, stdout: out.stdout, stderr: out.stderr, progress: out.fd3.split('\n') }),
    );
  });
}

function failureReport(blocks: ShellBlock[], session: Session, outcome: Outcome): string {
  const started = outcome.progress.filter((l) => l.startsWith('block ')).map((l) => Number(l.slice(6)));
  const block = blocks[started.at(-1) ?? 0]!;
  const failed = /^command (\d+) ([\s\S]*)$/.exec(
    outcome.progress.find((l) => l.startsWith('command ')) ?? '',
  );
  const at = failed ? session.readmeLines[Number(failed[1]) - 1] : undefined;
  return [
    `README.md block at line ${block.line} (${JSON.stringify(block.lines[0])}) failed: ` +
      (outcome.signal
        ? `killed by ${outcome.signal} after ${SESSION_TIMEOUT_MS} ms`
        : `exit ${outcome.code}`),
    failed
      ? `failing command${at ? ` (README.md line ${at})` : ''}: ${failed[2]}`
      : 'failing command: unknown',
    '--- stderr ---',
    outcome.stderr.slice(-4000),
    '--- stdout (end) ---',
    outcome.stdout.slice(-2000),
  ].join('\n');
}

describe('README examples', { timeout: SESSION_TIMEOUT_MS + 120_000 }, () => {
  const blocks = runnableShellBlocks(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'));
  let target: Target;
  let scratch: string;

  before(async () => {
    target = await startEmbedded();
    mkdirSync(join(REPO_ROOT, '.tmp'), { recursive: true });
    scratch = mkdtempSync(join(REPO_ROOT, '.tmp', 'readme-'));
  });
  after(async () => {
    await target?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('every runnable sh block runs, in order, in one session against a fresh instance', async () => {
    assert.ok(blocks.length > 0, 'README.md has no runnable sh block');
    const session = sessionScript(blocks);
    const scriptFile = join(scratch, '.readme-session.sh');
    writeFileSync(scriptFile, session.script);
    // What a reader's shell has, plus the variables the README asks for; nothing of this process.
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? scratch,
      LANG: 'C.UTF-8',
      DOCFLOW_URL: target.baseUrl,
      KEY: target.adminKey,
      // Backup and restore: the data directory of the server.
      DOCFLOW_DATA_DIR: target.dataDir,
    };
    const outcome = await runBash(scriptFile, scratch, env);
    if (outcome.code !== 0) assert.fail(failureReport(blocks, session, outcome));
    assert.ok(
      outcome.progress.includes(`block ${blocks.length - 1}`),
      'the session ended before the last block',
    );
  });
});
