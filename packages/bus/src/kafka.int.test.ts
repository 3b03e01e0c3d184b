import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { GenericContainer, getContainerRuntimeClient, type StartedTestContainer, Wait } from 'testcontainers';
import { describeBusContract } from './conformance.js';
import { type DeadLetterValue, deadLetterTopic } from './delivery.js';
import { createKafkaBus } from './kafka.js';
import { BusUnavailable } from './port.js';

const KAFKA_IMAGE = 'apache/kafka:4.1.0';

/** A port on 127.0.0.1 that was free a moment ago: nobody listens on it. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  assert.ok(address && typeof address === 'object');
  return address.port;
}

/** Single-node KRaft broker advertised on a fixed host port, since the advertised address must be known up front. */
async function startKafka(): Promise<{ container: StartedTestContainer; brokers: string[] }> {
  const port = await freePort();
  const container = await new GenericContainer(KAFKA_IMAGE)
    .withExposedPorts({ container: 9092, host: port })
    .withEnvironment({
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
      KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://127.0.0.1:${port}`,
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
    })
    .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
    .withStartupTimeout(120_000)
    .start();
  return { container, brokers: [`127.0.0.1:${port}`] };
}

const brokersFromEnv = process.env.KAFKA_BROKERS?.split(',')
  .map((broker) => broker.trim())
  .filter(Boolean);
const containerRuntime = brokersFromEnv?.length
  ? false
  : await getContainerRuntimeClient().then(
      () => true,
      () => false,
    );
const noBroker = !brokersFromEnv?.length && !containerRuntime;
const noBrokerReason =
  'no Kafka broker: KAFKA_BROKERS is not set (infra/local/up.sh writes it to .infra/env) and no container runtime was found';

const enginesRequired = process.env.DOCFLOW_ENGINES_REQUIRED === '1';

describe('kafka bus on a real broker', {
  skip: noBroker && !enginesRequired ? noBrokerReason : undefined,
}, () => {
  if (noBroker) {
    it('has a Kafka broker to run against', () => {
      assert.fail(`${noBrokerReason}, but DOCFLOW_ENGINES_REQUIRED=1 says CI provides one`);
    });
    return;
  }
  let brokers = brokersFromEnv ?? [];
  let container: StartedTestContainer | undefined;

  before(
    async () => {
      if (brokers.length > 0) return;
      ({ container, brokers } = await startKafka());
    },
    { timeout: 180_000 },
  );

  after(async () => {
    await container?.stop();
  });

  describeBusContract(
    'kafka',
    async () => {
      const bus = createKafkaBus({ brokers, clientId: `bus-contract-${randomUUID().slice(0, 8)}` });
      await bus.ping();
      return { bus, cleanup: () => bus.close() };
    },
    {
      deliveryTimeoutMs: 60_000,
      partitionsShareAFetch:
        'kafkajs 2.2.4 fetches again only once every message of its last fetch is handled (consumer/fetcher.js), so a stuck message holds back the partitions it shares a broker with: long work must not hold a consumer (recognition queues its jobs)',
    },
  );

  it('dead-letters a record that is not a bus message, with the error in value and headers', {
    timeout: 90_000,
  }, async () => {
    const suffix = randomUUID().slice(0, 8);
    const topic = `foreign-${suffix}`;
    const bus = createKafkaBus({ brokers, clientId: `bus-foreign-${suffix}` });
    const raw = new Kafka({ clientId: `raw-${suffix}`, brokers, logLevel: logLevel.NOTHING });
    const producer = raw.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    const reader = raw.consumer({ groupId: `raw-${suffix}`, maxWaitTimeInMs: 500 });
    try {
      const handled: string[] = [];
      await bus.subscribe({ groupId: `g-${suffix}`, topics: [topic] }, async (m) => {
        handled.push(m.id);
      });
      await producer.connect();
      await producer.send({ topic, messages: [{ key: 'doc-1', value: 'not json' }] });
      await bus.publish(topic, [{ id: 'after', key: 'doc-1', value: { ok: true } }]);
      const deadline = Date.now() + 60_000;
      // Same key, so the later message is handled only after the foreign record was dead-lettered.
      while (handled.length === 0 && Date.now() < deadline) await sleep(50);
      const deadLetters: { value: DeadLetterValue; error: string | undefined }[] = [];
      await reader.connect();
      await reader.subscribe({ topics: [deadLetterTopic(topic)], fromBeginning: true });
      await reader.run({
        eachMessage: async ({ message }) => {
          const envelope = JSON.parse(message.value!.toString()) as { value: DeadLetterValue };
          deadLetters.push({ value: envelope.value, error: message.headers?.['docflow-error']?.toString() });
        },
      });
      while (deadLetters.length === 0 && Date.now() < deadline) await sleep(50);
      assert.deepEqual(handled, ['after']);
      assert.equal(deadLetters.length, 1);
      assert.equal(deadLetters[0]!.value.value, 'not json');
      assert.equal(deadLetters[0]!.value.topic, topic);
      assert.match(deadLetters[0]!.error ?? '', /JSON/);
    } finally {
      await Promise.allSettled([reader.disconnect(), producer.disconnect(), bus.close()]);
    }
  });

  it('keeps its partition through a handler running twice the session timeout (heartbeats while it runs)', {
    timeout: 90_000,
  }, async () => {
    const suffix = randomUUID().slice(0, 8);
    const topic = `long-${suffix}`;
    // The broker's smallest session timeout (group.min.session.timeout.ms defaults to 6 s).
    const sessionTimeoutMs = 6_000;
    const bus = createKafkaBus({
      brokers,
      clientId: `bus-long-${suffix}`,
      sessionTimeoutMs,
      heartbeatIntervalMs: 1_000,
    });
    try {
      const deliveries: string[] = [];
      await bus.subscribe({ groupId: `g-${suffix}`, topics: [topic] }, async (m) => {
        deliveries.push(m.id);
        if (m.id === 'long') await sleep(2 * sessionTimeoutMs);
      });
      await bus.publish(topic, [{ id: 'long', key: 'doc-1', value: {} }]);
      const deadline = Date.now() + 60_000;
      while (!deliveries.includes('long') && Date.now() < deadline) await sleep(50);
      // Same key, same partition: the later message comes after the long one was committed, or after
      // its redelivery had the member lost its session in the meantime.
      await bus.publish(topic, [{ id: 'after', key: 'doc-1', value: {} }]);
      while (!deliveries.includes('after') && Date.now() < deadline) await sleep(50);
      assert.deepEqual(deliveries, ['long', 'after']);
    } finally {
      await bus.close();
    }
  });
});

describe('kafka bus without a broker', () => {
  it('rejects ping() with BusUnavailable within a few seconds', async () => {
    const port = await freePort();
    const bus = createKafkaBus({ brokers: [`127.0.0.1:${port}`], clientId: 'bus-ping-test' });
    const started = Date.now();
    await assert.rejects(bus.ping(), BusUnavailable);
    const elapsed = Date.now() - started;
    assert.ok(elapsed < 3_000, `ping took ${elapsed} ms to fail`);
    await bus.close();
  });

  it('rejects publish() and subscribe() with BusUnavailable', async () => {
    const port = await freePort();
    const bus = createKafkaBus({
      brokers: [`127.0.0.1:${port}`],
      clientId: 'bus-unavailable-test',
      requestRetry: { retries: 1, initialRetryTime: 50 },
    });
    await assert.rejects(bus.publish('t', [{ id: 'm-1', key: 'k', value: {} }]), BusUnavailable);
    await assert.rejects(
      bus.subscribe({ groupId: 'g', topics: ['t'] }, async () => {}),
      BusUnavailable,
    );
    await bus.close();
    await assert.rejects(bus.ping(), BusUnavailable);
  });
});
