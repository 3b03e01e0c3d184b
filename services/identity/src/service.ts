/** Composition of the identity service from its ports: used by the embedded runner and by main.ts. */
import type { Bus } from '@docflow/bus';
import { PRIVATE_IDENTITY_EVENTS, topicsOf } from '@docflow/contracts';
import type { EventStore, Subscription } from '@docflow/eventstore';
import { checkpointStore, createServiceApp, type LocalDb, type Logger, startRelay } from '@docflow/kit';
import type { Hono } from 'hono';
import { identityApi } from './api';
import { type BootstrapResult, bootstrapAdmin } from './bootstrap';

export interface IdentityServiceDeps {
  store: EventStore;
  bus: Bus;
  /** Local database for the relay checkpoint. */
  db: LocalDb;
  log: Logger;
  /** Prefix of the bus topics and consumer groups (DOCFLOW_NAMESPACE). */
  namespace: string;
  internalToken: string;
  adminKey?: string;
}

export interface IdentityService {
  app: Hono;
  /** Keys the admin account (a generated key comes back, to print once) and starts the relay. */
  start(): Promise<BootstrapResult>;
  stop(): Promise<void>;
}

export function createIdentityService(deps: IdentityServiceDeps): IdentityService {
  const { store, bus, db, log } = deps;
  const app = createServiceApp({
    log,
    internalToken: deps.internalToken,
    readiness: { eventStore: () => store.ping(), bus: () => bus.ping() },
    guarded: ['/api/*', '/internal/*'],
  });
  app.route('/', identityApi(store));

  let relay: Subscription | undefined;
  return {
    app,
    async start() {
      const bootstrap = await bootstrapAdmin(store, deps.adminKey);
      relay = startRelay({
        name: 'identity-relay',
        store,
        bus,
        checkpoints: checkpointStore(db),
        streamPrefixes: ['account-'],
        route: (e) =>
          PRIVATE_IDENTITY_EVENTS.has(e.type)
            ? undefined
            : { topic: topicsOf(deps.namespace).identity, key: e.streamId.slice('account-'.length) },
        log,
      });
      return bootstrap;
    },
    async stop() {
      await relay?.stop();
    },
  };
}
