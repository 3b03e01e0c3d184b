/**
 * The engines of one distributed service, chosen by configuration: Kafka for the bus; the event store
 * EVENTSTORE_CONNECTION_STRING names (`esdb://` EventStoreDB, `postgres://` PostgreSQL with a schema
 * per service), else the service's own embedded SQLite store (no registry reachable from some machines
 * ships EventStoreDB); MinIO for blobs when the service keeps any.
 */
import { join, resolve } from 'node:path';
import { type BlobStore, createMinioBlobStore } from '@docflow/blobstore';
import { type Bus, createKafkaBus } from '@docflow/bus';
import {
  createEsdbEventStore,
  createPostgresEventStore,
  createSqliteEventStore,
  type EventStore,
  type ServiceLease,
  type SharedSql,
} from '@docflow/eventstore';
import { z } from 'zod';
import { busMetricsObserver, trackConsumerLag } from './bus-metrics';
import { traceBus } from './bus-tracing';
import { envFields } from './config';
import { type DataDirLock, lockDataDir } from './data-dir-lock';
import { instrumentEventStore } from './event-store-metrics';
import { traceEventStore } from './event-store-tracing';
import { type LocalDb, openLocalDb } from './local-db';
import { telemetrySetting } from './telemetry';

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** The event store engines a connection string may name: EventStoreDB/KurrentDB or PostgreSQL. */
const EVENT_STORE_URL = /^(esdb(\+discover)?|postgres(ql)?):\/\//;
const POSTGRES_URL = /^postgres(ql)?:\/\//;

/** Who may read `/metrics`, and whether requests are measured and traced at all, in either mode. */
export const MetricsEnv = z.object({
  /** `off` leaves out the metrics and tracing middleware and wrappers (telemetry.ts). */
  DOCFLOW_TELEMETRY: telemetrySetting,
  /** When set, `/metrics` needs `Authorization: Bearer <it>`; unset, it is open to whoever reaches the port. */
  DOCFLOW_METRICS_TOKEN: optional(z.string().min(16, 'at least 16 characters')),
});

/** Variables every distributed service reads. */
export const DistributedEnv = MetricsEnv.extend({
  DOCFLOW_MODE: z.literal('distributed', {
    message: 'a service started on its own runs in distributed mode',
  }),
  PORT: envFields.port,
  HOST: z.string().min(1).default('0.0.0.0'),
  DOCFLOW_DATA_DIR: z.string().min(1).default('./data'),
  DOCFLOW_INTERNAL_TOKEN: z
    .string()
    .min(32, 'must be at least 32 characters (a shared secret of the services)'),
  /** Prefix of every Kafka topic (and consumer group): deployments sharing a cluster stay apart. */
  DOCFLOW_NAMESPACE: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,40}$/, 'lowercase letters, digits and dashes')
    .default('docflow'),
  KAFKA_BROKERS: envFields.csv.pipe(z.array(z.string().regex(/^[^:\s]+:\d+$/, 'host:port')).min(1)),
  EVENTSTORE_CONNECTION_STRING: optional(
    z.string().regex(EVENT_STORE_URL, 'an esdb://, esdb+discover:// or postgres:// URL'),
  ),
  /**
   * On a shared PostgreSQL store: how long a lease (the relay's, audit checkpoints') outlives its
   * holder's last renewal (a standby takes over after at most this plus a third of it); default 10000.
   */
  DOCFLOW_LEASE_TTL_MS: optional(z.coerce.number().int().min(300).max(600_000)),
  LOG_LEVEL: envFields.logLevel.default('info'),
});
export type DistributedEnv = z.infer<typeof DistributedEnv>;

export const MinioEnv = z.object({
  MINIO_ENDPOINT: z.string().regex(/^[^:\s]+:\d+$/, 'host:port'),
  MINIO_ACCESS_KEY: z.string().min(3),
  MINIO_SECRET_KEY: z.string().min(8),
  MINIO_USE_SSL: envFields.bool.default(false),
  MINIO_BUCKET: z.string().min(3).default('docflow'),
  MINIO_REGION: z.string().min(1).default('us-east-1'),
});
export type MinioEnv = z.infer<typeof MinioEnv>;

type StoreEnv = Pick<DistributedEnv, 'DOCFLOW_DATA_DIR' | 'EVENTSTORE_CONNECTION_STRING'> &
  Partial<Pick<DistributedEnv, 'DOCFLOW_LEASE_TTL_MS'>>;

const serviceDir = (service: string, env: StoreEnv) => resolve(env.DOCFLOW_DATA_DIR, service);

/**
 * Makes this process the only one on the service's data directory (DataDirInUse otherwise); taken
 * before any of its stores is opened, released after they are closed.
 */
export function claimServiceDir(service: string, env: StoreEnv): DataDirLock {
  return lockDataDir(serviceDir(service, env));
}

/** The service's event store, instrumented for metrics and traces. */
export function openEventStore(service: string, env: StoreEnv): EventStore {
  return openSharedEventStore(service, env).store;
}

/**
 * The service's event store, and on a store several processes of the service share the lease that
 * lets one of them do a piece of work at a time (relay, audit checkpoints). SQLite is one process's own; on EventStoreDB there is no lease
 * (each process relays, and consumers dedupe by event id).
 */
function openSharedEventStore(
  service: string,
  env: StoreEnv,
): { store: EventStore; serviceLease?: ServiceLease; sharedSql?: SharedSql } {
  const connectionString = env.EVENTSTORE_CONNECTION_STRING;
  const instrumented = (store: EventStore) => instrumentEventStore(traceEventStore(store, service), service);
  if (!connectionString)
    return {
      store: instrumented(createSqliteEventStore({ file: join(serviceDir(service, env), 'events.db') })),
    };
  if (POSTGRES_URL.test(connectionString)) {
    // On PostgreSQL the service's streams sit in a schema named after it.
    const store = createPostgresEventStore({ connectionString, schema: service.replaceAll('-', '_') });
    return {
      store: instrumented(store),
      serviceLease: store.serviceLease(env.DOCFLOW_LEASE_TTL_MS),
      sharedSql: store.sharedSql(),
    };
  }
  return { store: instrumented(createEsdbEventStore({ connectionString })) };
}

/** The Kafka bus, reporting its consumers to the metrics and carrying the trace in message headers. */
export function openKafkaBus(service: string, env: DistributedEnv): Bus {
  const bus = createKafkaBus({
    brokers: env.KAFKA_BROKERS,
    clientId: `docflow-${service}`,
    observer: busMetricsObserver,
  });
  trackConsumerLag(bus);
  return traceBus(bus, service);
}

/** The service's local database: relay checkpoints, handled message ids, read models. */
export function openServiceDb(service: string, env: StoreEnv): LocalDb {
  return openLocalDb(join(serviceDir(service, env), 'local.db'));
}

export interface ServiceEngines {
  service: string;
  metricsToken?: string;
  store: EventStore;
  /** On a shared store: the leases that let one process of the service relay (or checkpoint) at a time. */
  serviceLease?: ServiceLease;
  /** On a shared PostgreSQL store: the service's schema for state its processes share. */
  sharedSql?: SharedSql;
  bus: Bus;
  db: LocalDb;
  /** Closes the bus, the store and the database, in that order, then unlocks the directory. */
  close(): Promise<void>;
}

/** The event store, Kafka bus and local database of one distributed service, its directory locked. */
export function openServiceEngines(service: string, env: DistributedEnv): ServiceEngines {
  const lock = claimServiceDir(service, env);
  const { store, serviceLease, sharedSql } = openSharedEventStore(service, env);
  const bus = openKafkaBus(service, env);
  const db = openServiceDb(service, env);
  return {
    service,
    metricsToken: env.DOCFLOW_METRICS_TOKEN,
    store,
    serviceLease,
    sharedSql,
    bus,
    db,
    async close() {
      await bus.close();
      await store.close();
      db.close();
      lock.release();
    },
  };
}

export function openMinio(env: MinioEnv): BlobStore {
  const [host, port] = env.MINIO_ENDPOINT.split(':');
  return createMinioBlobStore({
    endPoint: host!,
    port: Number(port),
    useSSL: env.MINIO_USE_SSL,
    accessKey: env.MINIO_ACCESS_KEY,
    secretKey: env.MINIO_SECRET_KEY,
    bucket: env.MINIO_BUCKET,
    region: env.MINIO_REGION,
  });
}
