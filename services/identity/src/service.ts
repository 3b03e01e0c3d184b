import { INTERNAL_PATHS, PRIVATE_IDENTITY_EVENTS, SESSION_STREAM_PREFIX, topicsOf } from '@docflow/contracts';
import type { Subscription } from '@docflow/eventstore';
import { createServiceApp, relayOwnStreams, type ServiceBaseDeps } from '@docflow/kit/http';
import type { Hono } from 'hono';
import { accountAggregate } from './account';
import { createAccountList } from './account-list';
import { identityApi } from './api';
import { type BootstrapResult, bootstrapAdmin } from './bootstrap';
import { keyStoreBeside, keyStoreFileBeside, keyStoreFileRows } from './key-store';
import { postgresKeyStore } from './key-store-postgres';
import { notificationSettingsApi } from './notification-settings';
import { personalTokensApi } from './personal-tokens-api';
import { signInApi } from './sign-in-api';

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
  const app = createServiceApp(deps, { guarded: ['/api/*', INTERNAL_PATHS] });
  // The keys of personal data: on a shared PostgreSQL store in identity's schema, so that every identity
  // process has every key and sees every erasure; otherwise in identity's own data directory.
  // A keys.db an earlier version kept beside a PostgreSQL store is moved in there at first use.
  const keys = deps.sharedSql
    ? postgresKeyStore(deps.sharedSql, { carryOver: () => keyStoreFileRows(keyStoreFileBeside(deps.db)) })
    : keyStoreBeside(deps.db);
  const accounts = accountAggregate(keys);
  const accountList = createAccountList(store, deps.db, deps.log);
  app.route('/', identityApi(store, accounts, keys, accountList));
  app.route('/', signInApi(store, accounts, keys));
  app.route('/', personalTokensApi(store, accounts));
  app.route('/', notificationSettingsApi(store, accounts));

  let bootstrap: BootstrapResult | undefined;
  let relay: Subscription | undefined;
  let sessionsRelay: Subscription | undefined;
  return {
    app,
    async start() {
      bootstrap ??= await bootstrapAdmin(store, accounts, deps.adminKey);
      accountList.start();
      relay ??= relayOwnStreams('identity', deps, {
        prefixes: ['account-'],
        topic: topicsOf(deps.namespace).identity,
        keepPrivate: (e) => PRIVATE_IDENTITY_EVENTS.has(e.type),
      });
      // Sign-ins and sessions on a topic of their own: the accounts' consumers never see them.
      sessionsRelay ??= relayOwnStreams('identity-sessions', deps, {
        prefixes: [SESSION_STREAM_PREFIX],
        topic: topicsOf(deps.namespace).sessions,
      });
      return bootstrap;
    },
    async stop() {
      await relay?.stop();
      await sessionsRelay?.stop();
      await accountList.stop();
      keys.close();
    },
  };
}
