/** Composition of the gateway: its app, its read model of accounts and the bus consumer feeding it. */
import type { Bus, Consumer } from '@docflow/bus';
import { ADMIN_ACCOUNT_ID, topicsOf } from '@docflow/contracts';
import type { Logger } from '@docflow/kit';
import type { LocalDb } from '@docflow/kit/eventsourcing';
import type { AccessLogLevel, ReadinessCheck } from '@docflow/kit/http';
import { startWithRetry } from '@docflow/kit/runner';
import { accountsPageFromIdentity } from './account-lookup';
import { createAccountsReadModel } from './accounts-read-model';
import { createGatewayApp, type GatewayDeps } from './app';
import type { EdgeOptions } from './config';
import { createSessionsReadModel } from './sessions-read-model';

/** Identity is usually up within a second or two (it answers 503 while its account list catches up). */
const REBUILD_BACKOFF = { initialMs: 100, maxMs: 5000, random: Math.random };

export interface GatewayServiceDeps {
  services: GatewayDeps['services'];
  bus: Bus;
  db: LocalDb;
  log: Logger;
  /** Prefix of the bus topics and consumer groups (DOCFLOW_NAMESPACE). */
  namespace: string;
  internalToken: string;
  /** Each gateway instance keeps a whole read model, so each is its own consumer group. */
  instanceId: string;
  readiness: Record<string, ReadinessCheck>;
  accessLogLevel?: AccessLogLevel;
  edge: EdgeOptions;
  /** When set, `/metrics` needs it as a bearer token. */
  metricsToken?: string;
}

export interface GatewayService {
  app: ReturnType<typeof createGatewayApp>;
  start(): Promise<void>;
  /** Resolves true once account `id` reached `rev` in the gateway's read model. */
  waitForAccount(id: string, rev: number, timeoutMs: number): Promise<boolean>;
  stop(): Promise<void>;
}

export function createGatewayService(deps: GatewayServiceDeps): GatewayService {
  const accounts = createAccountsReadModel(deps.db);
  const sessions = createSessionsReadModel(deps.db);
  const app = createGatewayApp({
    services: deps.services,
    accounts,
    sessions,
    internalToken: deps.internalToken,
    log: deps.log,
    accessLogLevel: deps.accessLogLevel,
    edge: deps.edge,
    metricsToken: deps.metricsToken,
    readiness: {
      ...deps.readiness,
      bus: () => deps.bus.ping(),
      // Until the identity events reached the read model, no key can be checked.
      accounts: async () => {
        if (!accounts.byId(ADMIN_ACCOUNT_ID)) throw new Error('accounts not known yet');
        if (!accounts.rebuilt()) throw new Error('accounts not rebuilt from identity yet');
      },
    },
  });
  let consumer: Consumer | undefined;
  const stopping = new AbortController();
  let rebuilding: Promise<boolean> | undefined;
  let sessionsConsumer: Consumer | undefined;
  return {
    app,
    async start() {
      consumer ??= await deps.bus.subscribe(
        {
          groupId: `${deps.namespace}.gateway-${deps.instanceId}`,
          topics: [topicsOf(deps.namespace).identity],
          fromBeginning: true,
        },
        (message) => accounts.handle(message),
      );
      // In the background: identity may start after the gateway (the embedded runner starts consumers
      // first); until the rebuild is done the gateway is not ready.
      const fetchPage = accountsPageFromIdentity(deps.services.identity, deps.internalToken);
      rebuilding ??= startWithRetry(() => accounts.rebuild(fetchPage), {
        signal: stopping.signal,
        backoff: REBUILD_BACKOFF,
        onFailure: (err, attempt, retryInMs) =>
          deps.log.info({ err, attempt, retryInMs }, 'accounts: rebuild from identity failed, retrying'),
      });
      // Sessions and the deactivations that end them, in a group of their own per instance.
      const topics = topicsOf(deps.namespace);
      sessionsConsumer ??= await deps.bus.subscribe(
        {
          groupId: `${deps.namespace}.gateway-sessions-${deps.instanceId}`,
          topics: [topics.sessions, topics.identity],
          fromBeginning: true,
        },
        (message) =>
          message.topic === topics.sessions
            ? sessions.handleSessionEvent(message)
            : sessions.handleAccountEvent(message),
      );
    },
    waitForAccount: (id, rev, timeoutMs) => accounts.waitForRevision(id, rev, timeoutMs),
    async stop() {
      stopping.abort();
      await rebuilding;
      await consumer?.stop();
      await sessionsConsumer?.stop();
    },
  };
}
