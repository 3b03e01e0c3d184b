/**
 * A private Kafka and MinIO for a test that stops and restarts them (the fault tests): the same
 * infra/local scripts as `pnpm infra:up`, from the same install cache, on other loopback ports and
 * with a state directory of their own, so the shared engines other test files use are never touched.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stablePort } from './net';
import { REPO_ROOT } from './process';

export type Engine = 'kafka' | 'minio';

export interface PrivateEngines {
  /** KAFKA_BROKERS, MINIO_ENDPOINT, MINIO_ACCESS_KEY, MINIO_SECRET_KEY, MINIO_USE_SSL. */
  env: Record<string, string>;
  /** Stops the engine (SIGTERM, as `pnpm infra:down` does); its data stays. */
  stop(engine: Engine): Promise<void>;
  /** Starts it again on the same ports and data; resolves once it answers. */
  start(engine: Engine): Promise<void>;
  /** Stops both and removes their data. */
  destroy(): Promise<void>;
}

const SCRIPTS = join(REPO_ROOT, 'infra/local');

/** Why the private engines cannot run here (nothing installed yet and none required), or undefined. */
export function privateEnginesSkipReason(): string | undefined {
  if (process.env.DOCFLOW_ENGINES_REQUIRED === '1') return undefined; // start fails loudly instead
  const installed = spawnSync('bash', [
    '-c',
    `source ${SCRIPTS}/lib.sh && kafka_installed && minio_installed`,
  ]);
  if (installed.status === 0) return undefined;
  return 'Kafka and MinIO are not installed in the cache yet: run `pnpm infra:up` (or `pnpm test`, which does) first';
}

/** Installs nothing: the cache holds Kafka and MinIO once `pnpm infra:up` ran (as `pnpm test` does). */
export async function startPrivateEngines(): Promise<PrivateEngines> {
  const stateDir = mkdtempSync(join(tmpdir(), 'docflow-engines-'));
  const scriptEnv = {
    ...process.env,
    DOCFLOW_INFRA_STATE_DIR: stateDir,
    DOCFLOW_INFRA_KAFKA_PORT: String(await stablePort()),
    DOCFLOW_INFRA_KAFKA_CONTROLLER_PORT: String(await stablePort()),
    DOCFLOW_INFRA_MINIO_PORT: String(await stablePort()),
    DOCFLOW_INFRA_MINIO_CONSOLE_PORT: String(await stablePort()),
  };
  /** Asynchronous, so the test's own load keeps running while an engine stops or starts. */
  const script = (name: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn('bash', [join(SCRIPTS, name), ...args], {
        env: scriptEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`${name} ${args.join(' ')} exited ${code}:\n${output}`)),
      );
    });
  try {
    await script('up.sh', ['kafka', 'minio']);
  } catch (error) {
    await script('down.sh', ['--purge', 'all']).catch(() => {});
    rmSync(stateDir, { recursive: true, force: true });
    throw error;
  }
  const env: Record<string, string> = {};
  for (const line of readFileSync(join(stateDir, 'env'), 'utf8').split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) env[m[1]!] = m[2]!;
  }
  return {
    env,
    stop: (engine) => script('down.sh', [engine]),
    start: (engine) => script('up.sh', [engine]),
    async destroy() {
      await script('down.sh', ['--purge', 'all']);
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
