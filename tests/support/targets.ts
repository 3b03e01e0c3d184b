/**
 * The systems an API suite runs against. Every suite calls `forEachTarget` so the same cases run
 * in embedded mode and, where the real engines are available, in distributed mode.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_KEY_PATTERN } from '@docflow/contracts';
import {
  type BlobTampering,
  localBlobCount,
  minioBlobCount,
  tamperLocalBlob,
  tamperMinioBlob,
} from './blobs';
import { containerRuntime, startEngineContainers } from './containers';
import { stablePort } from './net';
import { type Proc, startTsProcess } from './process';
import { createRunDatabase, type RunDatabase } from './run-database';

export interface Target {
  name: string;
  baseUrl: string;
  adminKey: string;
  dataDir: string;
  /** Output of every process of the target, for checks that nothing secret was logged. */
  output(): string;
  /** Where an event store file of `service` lives (embedded SQLite adapter). */
  eventStoreFile(service: string): string;
  /** Process ids by name, e.g. to read their peak memory. */
  pids(): Record<string, number>;
  /** How many blobs the blob store holds (what attachments take on disk). */
  blobCount(): Promise<number>;
  /** Damages the blob of content `sha256` in the blob store, behind the services' back (audit tests). */
  tamperBlob(sha256: string, how: BlobTampering): Promise<void>;
  /** Base URL of each process by name: each serves its own `/metrics`. */
  processUrls(): Record<string, string>;
  stop(): Promise<void>;
}

export interface TargetOptions {
  /** null tests the generated-key path. */
  adminKey?: string | null;
  dataDir?: string;
  /** Extra environment for every process (e.g. DOCFLOW_MAX_UPLOAD_BYTES). */
  env?: Record<string, string>;
  /** Distributed mode: how many recognition processes share the OCR work (default 1). */
  recognitionInstances?: number;
  /**
   * Distributed mode: how many files services (default 1). Extra recognition instances are spread over
   * them (recognition-2 reads through files-2, …). Needs one shared event store (sharedEventStore).
   */
  filesInstances?: number;
  /**
   * Distributed mode: how many document services (default 1); gateway-N forwards to document-N when
   * there is one. Needs one shared event store (sharedEventStore).
   */
  documentInstances?: number;
  /**
   * Distributed mode: how many workflow services (default 1); document-N asks workflow-N when there is
   * one. Needs one shared event store (sharedEventStore).
   */
  workflowInstances?: number;
  /**
   * Distributed mode: how many identity services (default 1); gateway-N asks identity-N when there is
   * one. Needs one shared event store (sharedEventStore).
   */
  identityInstances?: number;
  /**
   * Distributed mode: how many webhooks services (default 1); gateway-N forwards to webhooks-N when
   * there is one. Needs one shared event store (sharedEventStore).
   */
  webhooksInstances?: number;
  /**
   * Distributed mode: every service on one shared event store — EVENTSTORE_CONNECTION_STRING when set,
   * else a database of the run's own on the PostgreSQL of POSTGRES_URL (default: only when a stateful
   * service runs as several processes; otherwise each keeps its own SQLite store).
   */
  sharedEventStore?: boolean;
  /** Distributed mode: how many gateways serve the API, each with its own read model (default 1). */
  gatewayInstances?: number;
  /** Distributed mode: the order the services are started in (default DISTRIBUTED_SERVICES). */
  launchOrder?: readonly DistributedService[];
  /**
   * Distributed mode: false returns once every process listens, not yet ready (default true: once
   * every process answers `/readyz` 200).
   */
  awaitReady?: boolean;
  /**
   * Distributed mode: the engines' settings (KAFKA_BROKERS, MINIO_*) instead of the shared ones, e.g.
   * private engines a fault test stops and restarts.
   */
  engines?: Record<string, string>;
  /** Embedded mode: the process's log goes to this file rather than through a pipe (benchmarks). */
  logFile?: string;
  /** Distributed mode: each process's log goes to `<logDir>/<name>.log` rather than through a pipe. */
  logDir?: string;
}

/** An API key identity generated (contracts' api-keys.ts), as it appears in a process's output. */
export const GENERATED_KEY_IN_OUTPUT = new RegExp(API_KEY_PATTERN.source.slice(1, -1), 'g');

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
    DOCFLOW_ADMIN_KEY: adminKey ?? '',
    ...options.env,
  };
  const proc = startTsProcess('services/embedded/src/main.ts', env, 'embedded docflow', {
    logFile: options.logFile,
  });
  const ready = await proc.waitForLog((l) => l.msg === 'docflow listening');
  return {
    name: 'embedded',
    proc,
    baseUrl: `http://127.0.0.1:${ready.port}`,
    adminKey: adminKey ?? '',
    dataDir,
    output: () => proc.output(),
    eventStoreFile: (service) => join(dataDir, service, 'events.db'),
    pids: () => ({ docflow: proc.child.pid! }),
    blobCount: async () => localBlobCount(dataDir),
    tamperBlob: async (sha256, how) => tamperLocalBlob(dataDir, sha256, how),
    processUrls: () => ({ docflow: `http://127.0.0.1:${ready.port}` }),
    async stop() {
      await proc.stop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Real engines for distributed mode, from `.infra/env` (infra/local/up.sh) or the environment. */
export function distributedEngines(): Record<string, string> | undefined {
  const names = ['KAFKA_BROKERS', 'MINIO_ENDPOINT', 'MINIO_ACCESS_KEY', 'MINIO_SECRET_KEY'];
  if (!names.every((n) => process.env[n])) return undefined;
  const store = process.env.EVENTSTORE_CONNECTION_STRING;
  return {
    ...Object.fromEntries(names.map((n) => [n, process.env[n]!])),
    ...(store ? { EVENTSTORE_CONNECTION_STRING: store } : {}),
  };
}

/**
 * Why services that keep state cannot run as several processes here: that needs every instance on one
 * event store, PostgreSQL (POSTGRES_URL, infra/local/up.sh) or EventStoreDB (EVENTSTORE_CONNECTION_STRING,
 * or the container the suite starts).
 */
export function sharedEventStoreSkipReason(): string | undefined {
  if (process.env.POSTGRES_URL) return undefined;
  const engines = distributedEngines();
  if (engines ? engines.EVENTSTORE_CONNECTION_STRING : containerRuntime) return undefined;
  if (process.env.DOCFLOW_ENGINES_REQUIRED === '1') return undefined; // start() fails loudly instead
  return (
    'several instances of a stateful service need one shared event store: no POSTGRES_URL (run ' +
    '`pnpm infra:up`), no container runtime and no EVENTSTORE_CONNECTION_STRING here'
  );
}

/** The shared store's connection string, when the run needs one and no EventStoreDB was given. */
async function runEventStore(
  engines: Record<string, string>,
  namespace: string,
  needed: boolean,
): Promise<RunDatabase | undefined> {
  if (!needed || engines.EVENTSTORE_CONNECTION_STRING) return undefined;
  const server = process.env.POSTGRES_URL;
  if (!server)
    throw new Error('a shared event store is needed but POSTGRES_URL is not set (infra/local/up.sh)');
  return createRunDatabase(server, `docflow_${namespace}`);
}

export function distributedSkipReason(): string | undefined {
  if (distributedEngines() || containerRuntime) return undefined;
  if (process.env.DOCFLOW_ENGINES_REQUIRED === '1') return undefined; // start() fails loudly instead
  return 'no KAFKA_BROKERS / MINIO_*: run `pnpm infra:up` (or `pnpm test`, which does) to run the distributed suite';
}

export const DISTRIBUTED_SERVICES = [
  'identity',
  'files',
  'workflow',
  'recognition',
  'document',
  'webhooks',
  'gateway',
] as const;
export type DistributedService = (typeof DISTRIBUTED_SERVICES)[number];

export interface DistributedTarget extends Target {
  /** The processes by service name, to kill and restart one. */
  procs: Record<string, Proc>;
  /** Base URL of every gateway, `baseUrl` (the first) included. */
  gatewayUrls: string[];
  /** `name`: an extra instance of the service (`recognition-2`); default the service's first. */
  restart(service: DistributedService, options?: { kill?: boolean; name?: string }): Promise<void>;
  /** Resolves once every process answers `/readyz` 200. */
  untilReady(timeoutMs?: number): Promise<void>;
  /** The environment every process shares: the engines, the namespace of the topics, the bucket. */
  env: Readonly<Record<string, string>>;
}

/** Each service its own process on real Kafka and MinIO, in a namespace of its own so runs never mix. */
export async function startDistributed(options: TargetOptions = {}): Promise<DistributedTarget> {
  const localEngines = options.engines ?? distributedEngines();
  const containers = localEngines || !containerRuntime ? undefined : await startEngineContainers();
  const engines = localEngines ?? containers?.env;
  if (!engines)
    throw new Error(
      'distributed suite required but KAFKA_BROKERS / MINIO_* are not set (infra/local/up.sh failed?)',
    );
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'docflow-distributed-'));
  const adminKey = options.adminKey === undefined ? newAdminKey() : (options.adminKey ?? '');
  const namespace = `t${randomBytes(6).toString('hex')}`;
  const runDatabase = await runEventStore(
    engines,
    namespace,
    options.sharedEventStore ??
      Math.max(
        options.filesInstances ?? 1,
        options.documentInstances ?? 1,
        options.workflowInstances ?? 1,
        options.identityInstances ?? 1,
        options.webhooksInstances ?? 1,
      ) > 1,
  );
  const common: Record<string, string> = {
    ...engines,
    ...(runDatabase ? { EVENTSTORE_CONNECTION_STRING: runDatabase.url } : {}),
    DOCFLOW_MODE: 'distributed',
    HOST: '127.0.0.1',
    DOCFLOW_DATA_DIR: dataDir,
    DOCFLOW_INTERNAL_TOKEN: randomBytes(32).toString('base64url'),
    DOCFLOW_NAMESPACE: namespace,
    MINIO_BUCKET: `docflow-${namespace}`,
    LOG_LEVEL: 'info',
    ...options.env,
  };
  const procs: Record<string, Proc> = {};
  // Chosen up front, so a service started before the ones it calls knows their URLs.
  const ports: Record<string, number> = {};
  for (const service of DISTRIBUTED_SERVICES) ports[service] = await stablePort();
  /** Services whose URL a process was given: their port can no longer change. */
  const handedOut = new Set<string>();
  const url = (service: string) => {
    handedOut.add(service);
    return `http://127.0.0.1:${ports[service]}`;
  };
  const envOf = (service: DistributedService): Record<string, string> => {
    const env = { ...common, PORT: String(ports[service] ?? 0) };
    if (service === 'identity') return { ...env, DOCFLOW_ADMIN_KEY: adminKey };
    if (service === 'workflow')
      return { ...env, IDENTITY_URL: url('identity'), DOCUMENT_URL: url('document') };
    if (service === 'recognition')
      return { ...env, FILES_URL: url('files'), DOCUMENT_URL: url('document'), DOCFLOW_OCR_WORKERS: '1' };
    if (service === 'webhooks') return { ...env, DOCUMENT_URL: url('document') };
    if (service === 'document')
      return {
        ...env,
        DOCUMENT_INSTANCE_ID: 'document',
        IDENTITY_URL: url('identity'),
        FILES_URL: url('files'),
        WORKFLOW_URL: url('workflow'),
        RECOGNITION_URL: url('recognition'),
      };
    if (service === 'gateway')
      return {
        ...env,
        IDENTITY_URL: url('identity'),
        DOCUMENT_URL: url('document'),
        WEBHOOKS_URL: url('webhooks'),
        RECOGNITION_URL: url('recognition'),
        GATEWAY_INSTANCE_ID: 'g1',
      };
    if (service === 'files') return { ...env, FILES_INSTANCE_ID: 'f1', DOCUMENT_URL: url('document') };
    return env;
  };

  /** The instance of `service` that instance `name` of another uses: the N-th of them uses `service-N` when there is one. */
  function instanceFor(
    name: string,
    service: 'files' | 'document' | 'workflow' | 'identity' | 'webhooks',
    count: number,
  ): string {
    const n = Number(/-(\d+)$/.exec(name)?.[1] ?? 1);
    const i = ((n - 1) % count) + 1;
    return i === 1 ? service : `${service}-${i}`;
  }

  /**
   * `name` tells extra instances of a service apart (`recognition-2`); each keeps its own data. An
   * extra gateway or files service also needs its own instance id: the id names its consumer group, and
   * instances that shared one would each learn only part of the accounts (of the attachments).
   */
  async function launch(service: DistributedService, name: string = service) {
    // A restarted extra instance takes its port again: the processes that call it were given its URL.
    const extra = { PORT: String(ports[name] ?? 0), DOCFLOW_DATA_DIR: join(dataDir, name) };
    if (service === 'gateway') Object.assign(extra, { GATEWAY_INSTANCE_ID: name });
    if (service === 'files') Object.assign(extra, { FILES_INSTANCE_ID: name });
    if (service === 'document') Object.assign(extra, { DOCUMENT_INSTANCE_ID: name });
    const files = instanceFor(name, 'files', options.filesInstances ?? 1);
    if (service === 'recognition' && files !== 'files') Object.assign(extra, { FILES_URL: url(files) });
    const document = instanceFor(name, 'document', options.documentInstances ?? 1);
    if (service === 'gateway' && document !== 'document')
      Object.assign(extra, { DOCUMENT_URL: url(document) });
    const identity = instanceFor(name, 'identity', options.identityInstances ?? 1);
    if (service === 'gateway' && identity !== 'identity')
      Object.assign(extra, { IDENTITY_URL: url(identity) });
    const webhooks = instanceFor(name, 'webhooks', options.webhooksInstances ?? 1);
    if (service === 'gateway' && webhooks !== 'webhooks')
      Object.assign(extra, { WEBHOOKS_URL: url(webhooks) });
    const workflow = instanceFor(name, 'workflow', options.workflowInstances ?? 1);
    if (service === 'document' && workflow !== 'workflow')
      Object.assign(extra, { WORKFLOW_URL: url(workflow) });
    const logFile = options.logDir === undefined ? undefined : join(options.logDir, `${name}.log`);
    for (let attempt = 1; ; attempt++) {
      const env = name === service ? envOf(service) : { ...envOf(service), ...extra };
      const proc = startTsProcess(`services/${service}/src/main.ts`, env, name, { logFile });
      procs[name] = proc;
      try {
        const listening = await proc.waitForLog((l) => l.msg === `${service} listening`);
        ports[name] = Number(listening.port);
        return;
      } catch (error) {
        // The port chosen up front was taken before the service bound it (an outgoing connection of
        // another test file, say): one whose URL no process was given yet can take another.
        const taken = name === service && !handedOut.has(service) && /EADDRINUSE/.test(String(error));
        if (!taken || attempt === 3) throw error;
        ports[service] = await stablePort();
      }
    }
  }

  /** Every process answers `/readyz` 200: each started (a service serves before it started). */
  async function untilReady(timeoutMs = 60_000) {
    const end = Date.now() + timeoutMs;
    for (const name of Object.keys(procs)) {
      for (;;) {
        const res = await fetch(`${url(name)}/readyz`).catch(() => undefined);
        if (res?.ok) break;
        if (Date.now() > end) throw new Error(`${name} not ready: ${res ? await res.text() : 'no answer'}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  try {
    for (const service of options.launchOrder ?? DISTRIBUTED_SERVICES) await launch(service);
    for (let i = 2; i <= (options.filesInstances ?? 1); i++) await launch('files', `files-${i}`);
    for (let i = 2; i <= (options.identityInstances ?? 1); i++) await launch('identity', `identity-${i}`);
    for (let i = 2; i <= (options.webhooksInstances ?? 1); i++) await launch('webhooks', `webhooks-${i}`);
    // Before the document services: document-N is given workflow-N's URL.
    for (let i = 2; i <= (options.workflowInstances ?? 1); i++) await launch('workflow', `workflow-${i}`);
    for (let i = 2; i <= (options.documentInstances ?? 1); i++) await launch('document', `document-${i}`);
    for (let i = 2; i <= (options.recognitionInstances ?? 1); i++)
      await launch('recognition', `recognition-${i}`);
    for (let i = 2; i <= (options.gatewayInstances ?? 1); i++) await launch('gateway', `gateway-${i}`);
    if (options.awaitReady ?? true) await untilReady();
  } catch (error) {
    // The processes already running would keep the test file alive after its suite failed.
    await Promise.allSettled(Object.values(procs).map((p) => p.stop()));
    await containers?.stop();
    await runDatabase?.drop();
    throw error;
  }
  const outputs: string[] = [];
  return {
    name: 'distributed',
    baseUrl: url('gateway'),
    adminKey,
    dataDir,
    procs,
    gatewayUrls: Object.keys(procs)
      .filter((name) => name === 'gateway' || name.startsWith('gateway-'))
      .map(url),
    output: () => [...outputs, ...Object.values(procs).map((p) => p.output())].join('\n'),
    eventStoreFile: (service) => join(dataDir, service, 'events.db'),
    pids: () => Object.fromEntries(Object.entries(procs).map(([name, p]) => [name, p.child.pid!])),
    blobCount: () => minioBlobCount(common),
    tamperBlob: (sha256, how) => tamperMinioBlob(common, sha256, how),
    processUrls: () => Object.fromEntries(Object.keys(procs).map((name) => [name, url(name)])),
    async restart(service, restartOptions = {}) {
      const name = restartOptions.name ?? service;
      const proc = procs[name]!;
      outputs.push(proc.output());
      if (restartOptions.kill) await proc.kill();
      else await proc.stop();
      await launch(service, name);
      await untilReady();
    },
    untilReady,
    env: common,
    async stop() {
      await Promise.all(Object.values(procs).map((p) => p.stop()));
      await containers?.stop();
      await runDatabase?.drop();
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

export function targets(options: TargetOptions = {}): TargetFactory[] {
  return [
    { name: 'embedded', start: () => startEmbedded(options) },
    { name: 'distributed', start: () => startDistributed(options), skip: distributedSkipReason() },
  ];
}
