/** Child processes for tests: started with tsx, output captured, stopped or killed for sure. */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

export const REPO_ROOT = new URL('../..', import.meta.url).pathname;

export interface Proc {
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the first stdout/stderr JSON log line matching `predicate`. */
  waitForLog(
    predicate: (line: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
  stop(graceMs?: number): Promise<number | null>;
  kill(): Promise<void>;
  /** Resolves with the exit code once the process has exited by itself. */
  exited: Promise<number | null>;
}

export interface ProcessOptions {
  /**
   * Send stdout and stderr to this file instead of through a pipe into this process (benchmarks: the
   * load generator then does not spend its time reading the server's logs).
   */
  logFile?: string;
  /** Start it as the leader of a process group of its own, as a terminal or a service manager does. */
  detached?: boolean;
}

const LOG_FILE_POLL_MS = 20;

export function startTsProcess(
  entry: string,
  env: Record<string, string>,
  name = entry,
  options: ProcessOptions = {},
): Proc {
  return startProcess([process.execPath, '--import', 'tsx', entry], env, name, options);
}

/** `command` (program and arguments) run from the repository's root with `env` added. */
export function startProcess(
  command: string[],
  env: Record<string, string>,
  name = command.join(' '),
  options: ProcessOptions = {},
): Proc {
  const logFd = options.logFile === undefined ? undefined : openSync(options.logFile, 'a');
  const child = spawn(command[0]!, command.slice(1), {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', logFd ?? 'pipe', logFd ?? 'pipe'],
    detached: options.detached,
  });
  if (logFd !== undefined) closeSync(logFd);
  let piped = '';
  const output = () => (options.logFile === undefined ? piped : readFileSync(options.logFile, 'utf8'));
  const listeners = new Set<(line: string) => void>();
  let partial = '';
  const feed = (text: string) => {
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) for (const l of listeners) l(line);
  };
  const onData = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    piped += text;
    feed(text);
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  // A log file: what was added since is read while someone waits for a line.
  const decoder = new StringDecoder('utf8');
  let offset = 0;
  const poll = setInterval(() => {
    if (listeners.size === 0 || options.logFile === undefined) return;
    const added = readFrom(options.logFile, offset);
    offset += added.length;
    feed(decoder.write(added));
  }, LOG_FILE_POLL_MS);
  poll.unref();
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      clearInterval(poll);
      resolve(code);
    }),
  );

  return {
    child,
    exited,
    output,
    waitForLog(predicate, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = (line: string) => {
          if (!line.startsWith('{')) return;
          try {
            const parsed = JSON.parse(line) as Record<string, unknown>;
            if (predicate(parsed)) finish(() => resolve(parsed));
          } catch {
            // not a log line
          }
        };
        const timer = setTimeout(
          () =>
            finish(() =>
              reject(
                new Error(`${name}: no matching log line in ${timeoutMs} ms:\n${output().slice(-3000)}`),
              ),
            ),
          timeoutMs,
        );
        const onExit = (code: number | null) => {
          // A log file may hold lines the poll has not read yet (a settled promise ignores the reject).
          for (const line of output().split('\n')) check(line);
          finish(() =>
            reject(new Error(`${name} exited with ${code} before logging:\n${output().slice(-3000)}`)),
          );
        };
        function finish(fn: () => void) {
          clearTimeout(timer);
          listeners.delete(check);
          child.off('exit', onExit);
          fn();
        }
        for (const line of output().split('\n')) check(line);
        listeners.add(check);
        child.once('exit', onExit);
      });
    },
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** The bytes of `file` from `offset` to its current end. */
function readFrom(file: string, offset: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const added = Buffer.alloc(Math.max(0, fstatSync(fd).size - offset));
    const n = readSync(fd, added, 0, added.length, offset);
    return added.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** Peak resident memory (VmHWM) of a running process, in MiB. */
export function peakMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) / 1024);
}
