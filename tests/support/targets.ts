/**
 * The systems an API suite runs against. Every suite calls `forEachTarget` so the same cases run
 * in embedded mode and, where the real engines are available, in distributed mode.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Proc, startTsProcess } from './process';

export interface Target {
  name: string;
  baseUrl: string;
  adminKey: string;
  dataDir: string;
  /** Output of every process of the target, for checks that nothing secret was logged. */
  output(): string;
  /** Where an event store file of `service` lives (embedded SQLite adapter). */
  eventStoreFile(service: string): string;
  stop(): Promise<void>;
}

export interface TargetOptions {
  /** Omit to test the generated-key path. */
  adminKey?: string | null;
  dataDir?: string;
}

export function newAdminKey(): string {
  return `test-admin-${randomBytes(24).toString('base64url')}`;
}

export async function startEmbedded(options: TargetOptions = {}): Promise<Target & { proc: Proc }> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'docflow-embedded-'));
  const adminKey = options.adminKey === undefined ? newAdminKey() : options.adminKey;
  const env: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    DOCFLOW_DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
  };
  if (adminKey) env.DOCFLOW_ADMIN_KEY = adminKey;
  else env.DOCFLOW_ADMIN_KEY = '';
  const proc = startTsProcess('services/embedded/src/main.ts', env, 'embedded docflow');
  const ready = await proc.waitForLog((l) => l.msg === 'docflow listening');
  return {
    name: 'embedded',
    proc,
    baseUrl: `http://127.0.0.1:${ready.port}`,
    adminKey: adminKey ?? '',
    dataDir,
    output: () => proc.output(),
    eventStoreFile: (service) => join(dataDir, service, 'events.db'),
    async stop() {
      await proc.stop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TargetFactory {
  name: string;
  start(): Promise<Target>;
  /** Set when the target cannot run here; the suite is then skipped with this reason. */
  skip?: string;
}

export function targets(): TargetFactory[] {
  return [{ name: 'embedded', start: () => startEmbedded() }];
}
