import { PRIVATE_IDENTITY_EVENTS, topicsOf } from '@docflow/contracts';
import type { Subscription } from '@docflow/eventstore';
import { createServiceApp, relayOwnStreams, type ServiceBaseDeps } from '@docflow/kit/http';
import type { Hono } from 'hono';
import { identityApi } from './api';
import { type BootstrapResult, bootstrapAdmin } from './bootstrap';

export interface IdentityServiceDeps extends ServiceBaseDeps {
  adminKey?: string;
}

export interface IdentityService {
  app: Hono;
  /**
   * Keys the admin account (a generated key comes back, to print once) and starts the relay; a retry
   * after a failure keeps what the failed attempt did.
   */
  start(): Promise<BootstrapResult>;
  stop(): Promise<void>;
}

export function createIdentityService(deps: IdentityServiceDeps): IdentityService {
  const { store } = deps;
  const app = createServiceApp(deps, { guarded: ['/api/*', '/internal/*'] });
  app.route('/', identityApi(store));

  let bootstrap: BootstrapResult | undefined;
  let relay: Subscription | undefined;
  return {
    app,
    async start() {
      bootstrap ??= await bootstrapAdmin(store, deps.adminKey);
      relay ??= relayOwnStreams('identity', deps, {
        prefixes: ['account-'],
        topic: topicsOf(deps.namespace).identity,
        keepPrivate: (e) => PRIVATE_IDENTITY_EVENTS.has(e.type),
      });
      return bootstrap;
    },
    async stop() {
      await relay?.stop();
    },
  };
}
