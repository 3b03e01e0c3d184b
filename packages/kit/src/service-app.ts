/**
 * The skeleton every service app shares: problem+json errors, request ids and logs, `/healthz`,
 * `/readyz` and `/metrics`, and the internal-token guard in front of its API paths.
 */
import type { Bus } from '@docflow/bus';
import type { EventStore, RecordedEvent, ServiceLease, SharedSql, Subscription } from '@docflow/eventstore';
import { Hono } from 'hono';
import { healthRoutes, type ReadinessCheck } from './health';
import { httpMetrics } from './http-metrics';
import { httpTracing } from './http-tracing';
import { startLeasedRelay } from './leased-relay';
import { checkpointStore, type LocalDb } from './local-db';
import type { Logger } from './logger';
import { metricsRoutes } from './metrics';
import { type PrincipalVariables, trustGatewayPrincipal } from './principal';
import { handleError, handleNotFound } from './problem';
import { type RelayOptions, startRelay } from './relay';
import { type AccessLogLevel, type RequestVariables, requestContext } from './request-context';

export interface ServiceAppOptions {
  /** Paths reached only with the internal token (default `/api/*`). */
  guarded?: string[];
  /** Engines `/readyz` checks besides the event store and the bus, which every service has. */
  readiness?: Record<string, ReadinessCheck>;
}

/** What a service's routes see: the request ids and log, and the principal the gateway passed on. */
export type ServiceEnv = { Variables: RequestVariables & PrincipalVariables };

/** @example const app = createServiceApp(deps, { guarded: [INTERNAL_PATHS] }); */
export function createServiceApp(deps: ServiceBaseDeps, options: ServiceAppOptions = {}): Hono {
  const app = new Hono();
  app.onError(handleError);
  app.notFound(handleNotFound);
  app.use(httpTracing(deps.service));
  app.use(requestContext(deps.log, deps.accessLogLevel));
  app.use(httpMetrics(deps.service));
  app.route(
    '/',
    healthRoutes({ eventStore: () => deps.store.ping(), bus: () => deps.bus.ping(), ...options.readiness }),
  );
  app.route('/', metricsRoutes(deps.metricsToken));
  for (const path of options.guarded ?? ['/api/*']) app.use(path, trustGatewayPrincipal(deps.internalToken));
  return app;
}

/** What every service is built from: its own engines, its log, and where it belongs. */
export interface ServiceBaseDeps {
  /** The service's name: the `service` label of its metrics. */
  service: string;
  /** When set, `/metrics` answers only to `Authorization: Bearer <it>` (DOCFLOW_METRICS_TOKEN). */
  metricsToken?: string;
  store: EventStore;
  /** On a store several processes of the service share: only the lease's holder relays. */
  serviceLease?: ServiceLease;
  /** On a shared PostgreSQL store: the service's schema for state its processes share. */
  sharedSql?: SharedSql;
  bus: Bus;
  /** Local database: relay checkpoint, handled message ids, read models. */
  db: LocalDb;
  log: Logger;
  /** Prefix of the bus topics and consumer groups (DOCFLOW_NAMESPACE). */
  namespace: string;
  internalToken: string;
  /** `debug` when only the gateway calls the service, in-process (embedded mode); default `info`. */
  accessLogLevel?: AccessLogLevel;
}

export interface OwnStreamsRelay {
  /** Stream prefixes of the service's own events. */
  prefixes: string[];
  topic: string;
  /** Events that must not leave the service (default: none). */
  keepPrivate?: (event: RecordedEvent) => boolean;
  /** Each append as one message (RelayOptions.wholeAppends). */
  wholeAppends?: boolean;
}

/**
 * Publishes the service's own events to its topic, keyed by the id after the stream prefix
 * (`docForm-<id>` → `<id>`), from a checkpoint named after the service: the local one, or on a
 * shared store the one its lease carries (only the lease's holder relays).
 */
export function relayOwnStreams(
  service: string,
  deps: ServiceBaseDeps,
  relay: OwnStreamsRelay,
): Subscription {
  const checkpoints = checkpointStore(deps.db);
  const options: Omit<RelayOptions, 'checkpoints'> = {
    name: `${service}-relay`,
    store: deps.store,
    bus: deps.bus,
    streamPrefixes: relay.prefixes,
    route: (e) =>
      relay.keepPrivate?.(e)
        ? undefined
        : { topic: relay.topic, key: e.streamId.slice(e.streamId.indexOf('-') + 1) },
    log: deps.log,
    wholeAppends: relay.wholeAppends,
  };
  return deps.serviceLease
    ? startLeasedRelay({ ...options, lease: deps.serviceLease, localCheckpoints: checkpoints })
    : startRelay({ ...options, checkpoints });
}
