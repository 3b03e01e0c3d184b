/**
 * The embedded composition root: every service built from its factory with the embedded adapters
 * (SQLite event stores, in-process bus) under one data directory, mounted behind the gateway and
 * called in-process. No logic of its own.
 */
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { createInProcessBus } from '@docflow/bus';
import { ADMIN_ACCOUNT_ID } from '@docflow/contracts';
import { createSqliteEventStore } from '@docflow/eventstore';
import { createGatewayService } from '@docflow/gateway';
import { createIdentityService } from '@docflow/identity';
import { inProcessClient, type Logger, openLocalDb, type RunnableService } from '@docflow/kit';
import type { EmbeddedConfig } from './config';

const READ_MODEL_WAIT_MS = 10_000;

export interface EmbeddedSystem extends RunnableService {
  /** The admin key generated at this (first) start, to print once; undefined otherwise. */
  generatedAdminKey?: string;
}

export async function startEmbeddedSystem(config: EmbeddedConfig, log: Logger): Promise<EmbeddedSystem> {
  const dataDir = resolve(config.DOCFLOW_DATA_DIR);
  // In one process nobody else can reach the services, so a per-process secret is enough.
  const internalToken = randomBytes(32).toString('base64url');
  const bus = createInProcessBus();

  const identityStore = createSqliteEventStore({ file: join(dataDir, 'identity', 'events.db') });
  const identityDb = openLocalDb(join(dataDir, 'identity', 'local.db'));
  const identity = createIdentityService({
    store: identityStore,
    bus,
    db: identityDb,
    log: log.child({ component: 'identity' }),
    namespace: 'docflow',
    internalToken,
    adminKey: config.DOCFLOW_ADMIN_KEY,
  });

  const gatewayDb = openLocalDb(join(dataDir, 'gateway', 'local.db'));
  const gateway = createGatewayService({
    services: { identity: inProcessClient(identity.app.fetch) },
    bus,
    db: gatewayDb,
    log: log.child({ component: 'gateway' }),
    namespace: 'docflow',
    internalToken,
    instanceId: 'embedded',
    readiness: { identity: () => identityStore.ping() },
  });

  await gateway.start();
  const bootstrap = await identity.start();
  if (!(await gateway.waitForAccount(ADMIN_ACCOUNT_ID, bootstrap.revision, READ_MODEL_WAIT_MS)))
    throw new Error('the gateway did not learn the admin account in time');

  return {
    fetch: gateway.app.fetch,
    generatedAdminKey: bootstrap.generatedKey,
    async stop() {
      await identity.stop();
      await gateway.stop();
      await bus.close();
      await identityStore.close();
      identityDb.close();
      gatewayDb.close();
    },
  };
}
