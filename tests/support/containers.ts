/**
 * Where a container engine runs, the distributed suites get their engines from testcontainers:
 * Kafka (KRaft), MinIO and KurrentDB (the image docker-compose.yml runs), one set per test file.
 * Here (no engine) this is never reached: the engines come from infra/local instead, or the suites say why they are skipped.
 */
import { randomBytes } from 'node:crypto';
import { KURRENTDB_SERVER, KURRENTDB_TEST_ENVIRONMENT } from '@docflow/eventstore/kurrentdb-server';
import { GenericContainer, getContainerRuntimeClient, type StartedTestContainer, Wait } from 'testcontainers';
import { freePort } from './net';

const KAFKA_IMAGE = 'apache/kafka:4.1.1';
const MINIO_IMAGE = 'minio/minio:RELEASE.2025-04-22T22-12-26Z';
const STARTUP_MS = 180_000;

export const containerRuntime: boolean = await getContainerRuntimeClient().then(
  () => true,
  () => false,
);

export interface EngineContainers {
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startEngineContainers(): Promise<EngineContainers> {
  const kafkaPort = await freePort();
  const minioSecret = randomBytes(16).toString('hex');
  const started: StartedTestContainer[] = [];
  try {
    const kafka = new GenericContainer(KAFKA_IMAGE)
      .withEnvironment({
        KAFKA_NODE_ID: '1',
        KAFKA_PROCESS_ROLES: 'broker,controller',
        KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
        KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://127.0.0.1:${kafkaPort}`,
        KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
        KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
        KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      })
      .withExposedPorts({ container: 9092, host: kafkaPort })
      .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
      .withStartupTimeout(STARTUP_MS)
      .start();
    const minio = new GenericContainer(MINIO_IMAGE)
      .withEnvironment({ MINIO_ROOT_USER: 'docflow', MINIO_ROOT_PASSWORD: minioSecret })
      .withCommand(['server', '/data'])
      .withExposedPorts(9000)
      .withWaitStrategy(Wait.forHttp('/minio/health/ready', 9000))
      .withStartupTimeout(STARTUP_MS)
      .start();
    const eventStore = new GenericContainer(KURRENTDB_SERVER.image)
      .withEnvironment(KURRENTDB_TEST_ENVIRONMENT)
      .withExposedPorts(2113)
      .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCodeMatching((s) => s >= 200 && s < 300))
      .withStartupTimeout(STARTUP_MS)
      .start();
    const [k, m, e] = await Promise.all([kafka, minio, eventStore]);
    started.push(k, m, e);
    return {
      env: {
        KAFKA_BROKERS: `127.0.0.1:${kafkaPort}`,
        MINIO_ENDPOINT: `${m.getHost()}:${m.getMappedPort(9000)}`,
        MINIO_ACCESS_KEY: 'docflow',
        MINIO_SECRET_KEY: minioSecret,
        EVENTSTORE_CONNECTION_STRING: `esdb://${e.getHost()}:${e.getMappedPort(2113)}?tls=false`,
      },
      stop: async () => {
        await Promise.all(started.map((c) => c.stop()));
      },
    };
  } catch (err) {
    await Promise.all(started.map((c) => c.stop()));
    throw err;
  }
}
