/**
 * The engines of one distributed service, chosen by configuration: Kafka for the bus; EventStoreDB
 * when EVENTSTORE_CONNECTION_STRING is set, else the service's own embedded SQLite store (no registry
 * reachable from some machines ships EventStoreDB); MinIO for blobs when the service keeps any.
 */
import { join, resolve } from 'node:path';
import { type BlobStore, createMinioBlobStore } from '@docflow/blobstore';
import { type Bus, createKafkaBus } from '@docflow/bus';
import { createEsdbEventStore, createSqliteEventStore, type EventStore } from '@docflow/eventstore';
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
  EVENTSTORE_CONNECTION_STRING: optional(z.string().startsWith('esdb', 'an esdb:// or esdb+discover:// URL')),
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

type StoreEnv = Pick<DistributedEnv, 'DOCFLOW_DATA_DIR' | 'EVENTSTORE_CONNECTION_STRING'>;

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
  const store = env.EVENTSTORE_CONNECTION_STRING
    ? createEsdbEventStore({ connectionString: env.EVENTSTORE_CONNECTION_STRING })
    : createSqliteEventStore({ file: join(serviceDir(service, env), 'events.db') });
  return instrumentEventStore(traceEventStore(store, service), service);
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
  bus: Bus;
  db: LocalDb;
  /** Closes the bus, the store and the database, in that order, then unlocks the directory. */
  close(): Promise<void>;
}

/** The event store, Kafka bus and local database of one distributed service, its directory locked. */
export function openServiceEngines(service: string, env: DistributedEnv): ServiceEngines {
  const lock = claimServiceDir(service, env);
  const store = openEventStore(service, env);
  const bus = openKafkaBus(service, env);
  const db = openServiceDb(service, env);
  return {
    service,
    metricsToken: env.DOCFLOW_METRICS_TOKEN,
    store,
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
