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

/** Real engines for distributed mode, from `.infra/env` (infra/local/up.sh) or the environment. */
export function distributedEngines(): { kafkaBrokers: string } | undefined {
  const kafkaBrokers = process.env.KAFKA_BROKERS;
  return kafkaBrokers ? { kafkaBrokers } : undefined;
}

export function distributedSkipReason(): string | undefined {
  if (distributedEngines()) return undefined;
  if (process.env.DOCFLOW_ENGINES_REQUIRED === '1') return undefined; // start() fails loudly instead
  return 'no KAFKA_BROKERS: run `pnpm infra:up` (or `pnpm test`, which does) to run the distributed suite';
}

export interface DistributedTarget extends Target {
  /** The processes by service name, to kill and restart one. */
  procs: Record<string, Proc>;
  restart(service: 'identity' | 'gateway', options?: { kill?: boolean }): Promise<void>;
}

/** Each service its own process on real Kafka, in a namespace of its own so runs never mix. */
export async function startDistributed(options: TargetOptions = {}): Promise<DistributedTarget> {
  const engines = distributedEngines();
  if (!engines)
    throw new Error('distributed suite required but KAFKA_BROKERS is not set (infra/local/up.sh failed?)');
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'docflow-distributed-'));
  const adminKey = options.adminKey === undefined ? newAdminKey() : (options.adminKey ?? '');
  const common = {
    DOCFLOW_MODE: 'distributed',
    HOST: '127.0.0.1',
    DOCFLOW_DATA_DIR: dataDir,
    DOCFLOW_INTERNAL_TOKEN: randomBytes(32).toString('base64url'),
    DOCFLOW_NAMESPACE: `t${randomBytes(6).toString('hex')}`,
    KAFKA_BROKERS: engines.kafkaBrokers,
    LOG_LEVEL: 'info',
  };
  const procs: Record<string, Proc> = {};
  const ports: Record<string, number> = {};
  const envOf: Record<string, Record<string, string>> = {};

  async function launch(service: 'identity' | 'gateway') {
    const env =
      service === 'identity'
        ? { ...common, PORT: String(ports.identity ?? 0), DOCFLOW_ADMIN_KEY: adminKey }
        : {
            ...common,
            PORT: String(ports.gateway ?? 0),
            IDENTITY_URL: `http://127.0.0.1:${ports.identity}`,
            GATEWAY_INSTANCE_ID: 'g1',
          };
    envOf[service] = env;
    const proc = startTsProcess(`services/${service}/src/main.ts`, env, service);
    procs[service] = proc;
    const ready = await proc.waitForLog((l) => l.msg === `${service} listening`);
    ports[service] = Number(ready.port);
  }

  async function untilReady(timeoutMs = 60_000) {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const res = await fetch(`http://127.0.0.1:${ports.gateway}/readyz`).catch(() => undefined);
      if (res?.ok) return;
      if (Date.now() > end) throw new Error(`gateway not ready: ${res ? await res.text() : 'no answer'}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  await launch('identity');
  await launch('gateway');
  await untilReady();
  const outputs: string[] = [];
  return {
    name: 'distributed',
    baseUrl: `http://127.0.0.1:${ports.gateway}`,
    adminKey,
    dataDir,
    procs,
    output: () => [...outputs, ...Object.values(procs).map((p) => p.output())].join('\n'),
    eventStoreFile: (service) => join(dataDir, service, 'events.db'),
    async restart(service, restartOptions = {}) {
      const proc = procs[service]!;
      outputs.push(proc.output());
      if (restartOptions.kill) await proc.kill();
      else await proc.stop();
      await launch(service);
      await untilReady();
    },
    async stop() {
      await Promise.all(Object.values(procs).map((p) => p.stop()));
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
  return [
    { name: 'embedded', start: () => startEmbedded() },
    { name: 'distributed', start: () => startDistributed(), skip: distributedSkipReason() },
  ];
}
