/**
 * The embedded composition root: every service built from its factory with the embedded adapters
 * (SQLite event stores, in-process bus, a local blob directory) under one data directory, mounted
 * behind the gateway and called in-process. No logic of its own.
 */
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { createLocalBlobStore } from '@docflow/blobstore';
import { createInProcessBus } from '@docflow/bus';
import { ADMIN_ACCOUNT_ID } from '@docflow/contracts';
import { createDocumentService } from '@docflow/document';
import { createSqliteEventStore } from '@docflow/eventstore';
import { createFilesService } from '@docflow/files';
import { createGatewayService, edgeOptions } from '@docflow/gateway';
import { createIdentityService } from '@docflow/identity';
import type { Logger } from '@docflow/kit';
import {
  busMetricsObserver,
  instrumentEventStore,
  lockDataDirs,
  traceBlobStore,
  traceBus,
  traceEventStore,
  trackConsumerLag,
} from '@docflow/kit/engines';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { inProcessClient, serviceReadiness } from '@docflow/kit/http';
import type { RunnableService } from '@docflow/kit/runner';
import { createRecognitionService } from '@docflow/recognition';
import { createWebhooksService } from '@docflow/webhooks';
import { createWorkflowService, notifySettings, schedulerSettings } from '@docflow/workflow';
import type { EmbeddedConfig } from './config';

const READ_MODEL_WAIT_MS = 10_000;
const NAMESPACE = 'docflow';
/** Each has its own directory under the data directory, locked like a distributed service's. */
const SERVICES = ['gateway', 'identity', 'files', 'workflow', 'document', 'recognition', 'webhooks'] as const;

export interface EmbeddedSystem extends RunnableService {
  /** The admin key generated at this (first) start, to print once; undefined otherwise. */
  generatedAdminKey?: string;
}

export async function startEmbeddedSystem(config: EmbeddedConfig, log: Logger): Promise<EmbeddedSystem> {
  const dataDir = resolve(config.DOCFLOW_DATA_DIR);
  // Per service directory, not one for the whole data directory: a distributed service started on
  // this data directory is refused too. Before anything is opened; released after all is closed.
  const lock = lockDataDirs(SERVICES.map((service) => join(dataDir, service)));
  // In one process nobody else can reach the services, so a per-process secret is enough.
  const internalToken = randomBytes(32).toString('base64url');
  const bus = createInProcessBus({ observer: busMetricsObserver });
  trackConsumerLag(bus);
  const closers: Array<() => unknown> = [];
  function engines(service: (typeof SERVICES)[number]) {
    const sqlite = createSqliteEventStore({ file: join(dataDir, service, 'events.db') });
    const store = instrumentEventStore(traceEventStore(sqlite, service), service);
    const db = openLocalDb(join(dataDir, service, 'local.db'));
    closers.push(
      () => store.close(),
      () => db.close(),
    );
    const component = log.child({ component: service });
    // The gateway logs each request once; the services it calls in-process log theirs at debug.
    const accessLogLevel = service === 'gateway' ? ('info' as const) : ('debug' as const);
    return {
      service,
      store,
      db,
      bus: traceBus(bus, service),
      log: component,
      namespace: NAMESPACE,
      internalToken,
      accessLogLevel,
      // Only the gateway's /metrics is reachable: it reports every service of the process.
      metricsToken: config.DOCFLOW_METRICS_TOKEN,
    };
  }

  const identity = createIdentityService({ ...engines('identity'), adminKey: config.DOCFLOW_ADMIN_KEY });
  const files = createFilesService({
    ...engines('files'),
    blobs: traceBlobStore(await createLocalBlobStore({ dir: join(dataDir, 'files', 'blobs') }), 'files'),
    maxUploadBytes: config.DOCFLOW_MAX_UPLOAD_BYTES,
    uploadGraceSeconds: config.DOCFLOW_UPLOAD_GRACE_SECONDS,
    orphanSweepSeconds: config.DOCFLOW_ORPHAN_SWEEP_SECONDS,
    instanceId: 'embedded',
    // The document service is built below (it calls the files service); called only once started.
    document: inProcessClient((request, env) => document.app.fetch(request, env)),
  });
  const identityClient = inProcessClient(identity.app.fetch);
  const workflow = createWorkflowService({
    ...engines('workflow'),
    identity: identityClient,
    // The document service is built below (it calls the workflow service); called only once started.
    document: inProcessClient((request, env) => document.app.fetch(request, env)),
    ...schedulerSettings(config),
    ...notifySettings(config),
  });
  const clients = {
    identity: identityClient,
    files: inProcessClient(files.app.fetch),
    workflow: inProcessClient(workflow.app.fetch),
  };
  const document = createDocumentService({
    ...engines('document'),
    ...clients,
    // The recognition service is built below; called only once started.
    recognition: inProcessClient((request, env) => recognition.app.fetch(request, env)),
    maxCreateBytes: config.DOCFLOW_MAX_CREATE_BYTES,
    checkpointIntervalMs: config.DOCFLOW_AUDIT_CHECKPOINT_MS,
    searchCommonDocs: config.DOCFLOW_SEARCH_COMMON_DOCS,
    instanceId: 'embedded',
  });
  const documentClient = inProcessClient(document.app.fetch);
  const recognition = createRecognitionService({
    ...engines('recognition'),
    blobs: traceBlobStore(
      await createLocalBlobStore({ dir: join(dataDir, 'recognition', 'blobs') }),
      'recognition',
    ),
    files: clients.files,
    document: documentClient,
    ocrWorkers: config.DOCFLOW_OCR_WORKERS,
  });
  const webhooks = createWebhooksService({
    ...engines('webhooks'),
    allowedHosts: config.DOCFLOW_WEBHOOK_ALLOWED_HOSTS,
    retrySchedule: config.DOCFLOW_WEBHOOK_RETRY_SCHEDULE,
    timeoutMs: config.DOCFLOW_WEBHOOK_TIMEOUT_MS,
    logDays: config.DOCFLOW_WEBHOOK_LOG_DAYS,
    document: documentClient,
  });
  const webhooksClient = inProcessClient(webhooks.app.fetch);
  const gateway = createGatewayService({
    ...engines('gateway'),
    services: {
      identity: clients.identity,
      document: documentClient,
      webhooks: webhooksClient,
      recognition: inProcessClient(recognition.app.fetch),
    },
    instanceId: 'embedded',
    edge: edgeOptions(config),
    readiness: {
      identity: serviceReadiness(clients.identity),
      document: serviceReadiness(documentClient),
      files: serviceReadiness(clients.files),
      workflow: serviceReadiness(clients.workflow),
      webhooks: serviceReadiness(webhooksClient),
    },
  });

  // Consumers first, so that the relays' first events find them subscribed.
  await gateway.start();
  await files.start();
  await webhooks.start();
  const bootstrap = await identity.start();
  await recognition.start();
  await document.start();
  await workflow.start();
  if (!(await gateway.waitForAccount(ADMIN_ACCOUNT_ID, bootstrap.revision, READ_MODEL_WAIT_MS)))
    throw new Error('the gateway did not learn the admin account in time');

  return {
    fetch: gateway.app.fetch,
    generatedAdminKey: bootstrap.generatedKey,
    async stop() {
      // Relays first, consumers after: nothing is published to a consumer that already left.
      await identity.stop();
      await document.stop();
      await workflow.stop();
      await recognition.stop();
      await webhooks.stop();
      await files.stop();
      await gateway.stop();
      await bus.close();
      for (const close of closers) await close();
      lock.release();
    },
  };
}
