/** Kafka adapter of the bus port (kafkajs): idempotent producer, one kafkajs consumer per subscription. */

import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelayMs, TimeoutError, withTimeout } from '@docflow/timing';
import {
  type Admin,
  type EachMessagePayload,
  type IHeaders,
  Kafka,
  type Consumer as KafkaConsumer,
  type KafkaMessage,
  type logCreator,
  logLevel,
  Partitioners,
  type RetryOptions,
} from 'kafkajs';
import {
  type DeliveryObserver,
  deadLetterOf,
  deadLetterTopic,
  errorMessage,
  type HandlerRetryOptions,
  resolveRetry,
} from './delivery.js';
import {
  type Bus,
  type BusMessage,
  BusUnavailable,
  type Consumer,
  type ConsumerLag,
  type ConsumerOptions,
  type DeliveredMessage,
  DependencyUnavailable,
  type MessageHandler,
  type Published,
} from './port.js';

const DURABLE: Published = { durable: Promise.resolve() };

export interface KafkaBusOptions {
  /** `host:port` of the bootstrap brokers. */
  brokers: string[];
  clientId: string;
  /** Partitions of a topic the bus creates (default 3). */
  partitions?: number;
  /** Replication factor of a topic the bus creates (default 1, the local single-node broker). */
  replicationFactor?: number;
  /** Timeout of one TCP connect to a broker (default 3000 ms). */
  connectionTimeoutMs?: number;
  /** How long `ping()` may take before it reports the broker unavailable (default 2000 ms). */
  pingTimeoutMs?: number;
  /** Bound on `subscribe()`: connecting and joining the consumer group (default 60 s). */
  subscribeTimeoutMs?: number;
  /**
   * A consumer that sent no heartbeat this long is dropped from its group and its partitions move to
   * the others (default 10 s): how long a SIGKILLed consumer's partitions wait, and so how long a
   * restarted consumer waits to rejoin. Handlers heartbeat while they run, so a long one (an OCR job)
   * needs no longer session.
   */
  sessionTimeoutMs?: number;
  /** How often a consumer heartbeats, also while a handler runs (default 3 s). */
  heartbeatIntervalMs?: number;
  /** kafkajs retries of broker requests (connect, produce, metadata); default 5 retries from 300 ms. */
  requestRetry?: RetryOptions;
  /** Retries of a failing handler before its message goes to `<topic>.dlq`. */
  retry?: Partial<HandlerRetryOptions>;
  observer?: DeliveryObserver;
}

const OWN_HEADER_PREFIX = 'docflow-';
const MESSAGE_ID_HEADER = 'docflow-message-id';
const ERROR_HEADER = 'docflow-error';
const ORIGIN_HEADER = 'docflow-origin';
const CREATE_TOPIC_ATTEMPTS = 5;
const CREATE_TOPIC_RETRY_MS = 200;

/** What the message value holds on the wire. */
interface Envelope {
  id: string;
  value: Record<string, unknown>;
}

const UNAVAILABLE_ERRORS = new Set([
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSRequestTimeoutError',
  'KafkaJSBrokerNotFound',
  'KafkaJSNoBrokerAvailableError',
  'KafkaJSGroupCoordinatorNotFound',
  'KafkaJSMetadataNotLoaded',
  'KafkaJSTopicMetadataNotLoaded',
  'KafkaJSTimeout',
  'KafkaJSLockTimeout',
]);

/** kafkajs errors that mean "the broker cannot be reached or does not answer" (also when wrapped). */
function isUnavailable(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    if (e instanceof BusUnavailable || UNAVAILABLE_ERRORS.has(e.name)) return true;
    if (e.name.startsWith('KafkaJS') && (e as { retriable?: boolean }).retriable === true) return true;
  }
  return false;
}

function toBusError(error: unknown, doing: string): unknown {
  if (error instanceof BusUnavailable || !isUnavailable(error)) return error;
  return new BusUnavailable(`Kafka unavailable while ${doing}: ${errorMessage(error)}`, { cause: error });
}

/** Bounds a call to Kafka: no answer within `ms` is the port's BusUnavailable. */
async function answeredWithin<T>(ms: number, doing: string, work: () => Promise<T>): Promise<T> {
  try {
    return await withTimeout(work(), ms, doing);
  } catch (error) {
    if (!(error instanceof TimeoutError)) throw error;
    throw new BusUnavailable(`Kafka did not answer within ${ms} ms while ${doing}`, { cause: error });
  }
}

/** Runs `connect` once; a failed attempt is forgotten so the next call tries again. */
function lazily(connect: () => Promise<void>): () => Promise<void> {
  let pending: Promise<void> | undefined;
  return () => {
    pending ??= connect().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}

/**
 * kafkajs log entries as JSON lines on stderr, like the rest of docflow's logs. Error responses logged
 * per request are dropped: kafkajs handles most itself (rebalancing, topic exists), the rest reach the
 * caller as errors or show up as a consumer crash.
 */
const jsonLinesToStderr: logCreator =
  () =>
  ({ namespace, label, log }) => {
    const { timestamp, message, ...fields } = log;
    if (namespace === 'Connection' && message.startsWith('Response ')) return;
    const line = {
      time: timestamp,
      level: label.toLowerCase(),
      component: 'kafkajs',
      namespace,
      msg: message,
      ...fields,
    };
    try {
      process.stderr.write(`${JSON.stringify(line)}\n`);
    } catch {
      process.stderr.write(
        `${JSON.stringify({ time: timestamp, level: label.toLowerCase(), msg: message })}\n`,
      );
    }
  };

function encode(message: BusMessage, headers: IHeaders = {}) {
  const envelope: Envelope = { id: message.id, value: message.value };
  return {
    key: message.key,
    value: JSON.stringify(envelope),
    headers: { ...message.headers, ...headers, [MESSAGE_ID_HEADER]: message.id },
  };
}

/** The headers a publisher set, without the adapter's own (`docflow-*`). */
function publishedHeaders(message: KafkaMessage): Record<string, string> | undefined {
  const names = Object.keys(message.headers ?? {}).filter((name) => !name.startsWith(OWN_HEADER_PREFIX));
  if (names.length === 0) return undefined;
  return Object.fromEntries(names.map((name) => [name, header(message, name) ?? '']));
}

function header(message: KafkaMessage, name: string): string | undefined {
  const value = message.headers?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.toString();
}

function decode(topic: string, message: KafkaMessage): DeliveredMessage {
  const envelope = JSON.parse(message.value?.toString() ?? 'null') as Partial<Envelope> | null;
  const id = envelope?.id ?? header(message, MESSAGE_ID_HEADER);
  const value = envelope?.value;
  if (typeof id !== 'string' || typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError('not a docflow bus message: expected JSON {"id": string, "value": object}');
  }
  const delivered: DeliveredMessage = { id, key: message.key?.toString() ?? '', value, topic };
  const headers = publishedHeaders(message);
  if (headers) delivered.headers = headers;
  return delivered;
}

/**
 * Creates the Kafka bus. Topics are created on first use; a subscription is its own kafkajs consumer in
 * the given group, so instances of a service with the same groupId share the partitions of a topic.
 * Offsets are committed only for handled messages; a failing handler is retried in place with back-off,
 * then the message goes to `<topic>.dlq` with the error in its value and headers.
 *
 * @example
 * const bus = createKafkaBus({ brokers: ['127.0.0.1:19092'], clientId: 'workflow' });
 * await bus.ping();
 * await bus.subscribe({ groupId: 'workflow', topics: ['docForm'] }, async (m) => apply(m));
 */
export function createKafkaBus(options: KafkaBusOptions): Bus {
  const partitions = options.partitions ?? 3;
  const replicationFactor = options.replicationFactor ?? 1;
  const connectionTimeout = options.connectionTimeoutMs ?? 3_000;
  const pingTimeoutMs = options.pingTimeoutMs ?? 2_000;
  const subscribeTimeoutMs = options.subscribeTimeoutMs ?? 60_000;
  const sessionTimeout = options.sessionTimeoutMs ?? 10_000;
  const heartbeatInterval = options.heartbeatIntervalMs ?? 3_000;
  const handlerRetry = resolveRetry(options.retry);
  const requestRetry = options.requestRetry ?? { retries: 5, initialRetryTime: 300 };
  if (options.brokers.length === 0) throw new TypeError('brokers must not be empty');

  const kafka = new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    connectionTimeout,
    retry: requestRetry,
    logLevel: logLevel.ERROR,
    logCreator: jsonLinesToStderr,
  });
  // Fails fast and says nothing: the caller of ping() gets the error.
  const probeKafka = new Kafka({
    clientId: `${options.clientId}-ping`,
    brokers: options.brokers,
    connectionTimeout: Math.min(connectionTimeout, pingTimeoutMs),
    requestTimeout: pingTimeoutMs,
    retry: { retries: 0 },
    logLevel: logLevel.NOTHING,
  });
  const producer = kafka.producer({
    idempotent: true,
    // One request in flight keeps a key's messages in order when a send is retried.
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
    // An idempotent producer retries forever by default; a bounded publish lets the relay decide.
    retry: { ...requestRetry, retries: Math.max(1, requestRetry.retries ?? 5) },
  });
  const admin: Admin = kafka.admin();
  const connectProducer = lazily(() => producer.connect());
  const connectAdmin = lazily(() => admin.connect());
  const topicsReady = new Map<string, Promise<void>>();
  /** Each live consumer, with what tells its handler's waits that it stops. */
  const consumers = new Map<KafkaConsumer, AbortController>();
  /** Topics of each group this bus subscribed, for consumerLag(). */
  const subscribedTopics = new Map<string, Set<string>>();
  let closed = false;

  function assertOpen(): void {
    if (closed) throw new BusUnavailable('the Kafka bus is closed');
  }

  async function everyPartitionLed(topic: string): Promise<boolean> {
    const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
    const found = topics[0]?.partitions ?? [];
    return found.length > 0 && found.every((p) => p.leader >= 0);
  }

  function ensureTopic(topic: string): Promise<void> {
    let ready = topicsReady.get(topic);
    if (!ready) {
      ready = (async () => {
        await connectAdmin();
        // A broker whose metadata does not show a new topic yet fails the leader wait inside
        // createTopics ("does not host this topic-partition", retriable). Creating it again is a no-op
        // that does not wait, so from then on the leaders are asked for until every partition has one.
        for (let attempt = 1; ; attempt++) {
          try {
            await admin.createTopics({ topics: [{ topic, numPartitions: partitions, replicationFactor }] });
            if (attempt === 1 || (await everyPartitionLed(topic))) return;
          } catch (error) {
            if (!(error as { retriable?: boolean }).retriable || attempt >= CREATE_TOPIC_ATTEMPTS)
              throw error;
          }
          if (attempt >= CREATE_TOPIC_ATTEMPTS)
            throw new BusUnavailable(`topic ${topic}: no leader for every partition yet`);
          await sleep(CREATE_TOPIC_RETRY_MS * attempt);
        }
      })().catch((error: unknown) => {
        topicsReady.delete(topic);
        throw error;
      });
      topicsReady.set(topic, ready);
    }
    return ready;
  }

  async function send(topic: string, messages: ReturnType<typeof encode>[]): Promise<void> {
    await ensureTopic(topic);
    await connectProducer();
    await producer.send({ topic, acks: -1, messages });
  }

  async function deadLetter(
    payload: EachMessagePayload,
    failure: unknown,
    attempts: number,
    decoded?: BusMessage,
  ) {
    const { topic, partition, message } = payload;
    const original = decoded ?? {
      id: header(message, MESSAGE_ID_HEADER) ?? `${topic}/${partition}/${message.offset}`,
      key: message.key?.toString() ?? '',
      value: message.value?.toString() ?? null,
    };
    const dead = deadLetterOf(topic, original, failure, attempts);
    await send(deadLetterTopic(topic), [
      encode(dead, {
        [ERROR_HEADER]: errorMessage(failure),
        [ORIGIN_HEADER]: `${topic}/${partition}/${message.offset}`,
      }),
    ]);
  }

  /**
   * Runs `work` while heartbeating every interval: kafkajs heartbeats only between messages, so a
   * handler running longer than the session would lose its partitions. A failed heartbeat (the group
   * is rebalancing) is left to kafkajs, which rejoins once the handler returned.
   */
  async function heartbeating(payload: EachMessagePayload, work: () => Promise<void>): Promise<void> {
    const timer = setInterval(() => payload.heartbeat().catch(() => {}), heartbeatInterval);
    try {
      await work();
    } finally {
      clearInterval(timer);
    }
  }

  /**
   * Never throws for a handler error, so kafkajs commits the offset only once the message is dealt
   * with; but a DependencyUnavailable once `stopping` aborted: its offset stays uncommitted, and the
   * message comes again to the next member.
   */
  function eachMessage(groupId: string, handler: MessageHandler, stopping: AbortSignal) {
    const observer = options.observer;
    return async (payload: EachMessagePayload): Promise<void> => {
      let delivered: DeliveredMessage;
      try {
        delivered = decode(payload.topic, payload.message);
      } catch (error) {
        await deadLetter(payload, error, 1);
        observer?.deadLettered(groupId, payload.topic);
        return;
      }
      const { topic } = payload;
      // Calls that threw DependencyUnavailable: they lengthen the pause but never dead-letter.
      let waits = 0;
      for (let attempt = 1; ; ) {
        const started = performance.now();
        try {
          await heartbeating(payload, () =>
            handler({ ...delivered, value: structuredClone(delivered.value) }),
          );
          observer?.handled(groupId, topic, (performance.now() - started) / 1000, true);
          return;
        } catch (error) {
          observer?.handled(groupId, topic, (performance.now() - started) / 1000, false);
          if (error instanceof DependencyUnavailable) {
            // For as long as the dependency is away, but not past a stop: the offset stays uncommitted.
            observer?.retrying(groupId, topic);
            await sleep(backoffDelayMs(++waits, handlerRetry), undefined, { signal: stopping }).catch(
              () => {},
            );
            if (stopping.aborted) throw error;
          } else if (attempt >= handlerRetry.attempts) {
            await deadLetter(payload, error, attempt, delivered);
            observer?.deadLettered(groupId, topic);
            return;
          } else {
            observer?.retrying(groupId, topic);
            await sleep(backoffDelayMs(attempt++, handlerRetry));
          }
        }
        await payload.heartbeat();
      }
    };
  }

  async function startConsumer(
    consumer: KafkaConsumer,
    subscription: ConsumerOptions,
    handler: MessageHandler,
    stopping: AbortSignal,
  ) {
    await Promise.all(subscription.topics.map(ensureTopic));
    await consumer.connect();
    await consumer.subscribe({
      topics: subscription.topics,
      fromBeginning: subscription.fromBeginning ?? true,
    });
    const stopListening: (() => void)[] = [];
    const joined = new Promise<void>((resolve, reject) => {
      stopListening.push(consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
      // kafkajs restarts the consumer after a retriable crash (e.g. the coordinator is still loading).
      stopListening.push(
        consumer.on(consumer.events.CRASH, (event) => {
          if (!event.payload.restart) reject(event.payload.error);
        }),
      );
    });
    try {
      // run() returns once the group is joined, or after a crash while joining; the join may come later.
      await Promise.all([
        consumer.run({ eachMessage: eachMessage(subscription.groupId, handler, stopping) }),
        joined,
      ]);
    } finally {
      for (const stop of stopListening) stop();
    }
  }

  return {
    async publish(topic: string, messages: BusMessage[]): Promise<Published> {
      assertOpen();
      if (messages.length === 0) return DURABLE;
      const encoded = messages.map((message) => encode(message));
      try {
        await send(topic, encoded);
      } catch (error) {
        throw toBusError(error, `publishing to ${topic}`);
      }
      // Sent with acks=all: the brokers hold them.
      return DURABLE;
    },

    async subscribe(subscription: ConsumerOptions, handler: MessageHandler): Promise<Consumer> {
      assertOpen();
      if (subscription.topics.length === 0) throw new TypeError('topics must not be empty');
      const consumer = kafka.consumer({
        groupId: subscription.groupId,
        allowAutoTopicCreation: false,
        sessionTimeout,
        heartbeatInterval,
        // An idle fetch waits this long on the broker, and stop() waits for that fetch (kafkajs: 5 s).
        maxWaitTimeInMs: 1_000,
      });
      const stopping = new AbortController();
      consumers.set(consumer, stopping);
      const groupTopics = subscribedTopics.get(subscription.groupId) ?? new Set();
      for (const topic of subscription.topics) groupTopics.add(topic);
      subscribedTopics.set(subscription.groupId, groupTopics);
      const doing = `joining group ${subscription.groupId}`;
      try {
        await answeredWithin(subscribeTimeoutMs, doing, () =>
          startConsumer(consumer, subscription, handler, stopping.signal),
        );
      } catch (error) {
        consumers.delete(consumer);
        await consumer.disconnect().catch(() => {});
        throw toBusError(error, doing);
      }
      return {
        async stop() {
          stopping.abort();
          consumers.delete(consumer);
          await consumer.disconnect();
        },
      };
    },

    async consumerLag(): Promise<ConsumerLag[]> {
      assertOpen();
      // Committed offsets against the partitions' ends: two admin requests per group and topic.
      return answeredWithin(pingTimeoutMs, 'reading consumer lag', async () => {
        await connectAdmin();
        const ends = new Map<string, Map<number, { high: number; low: number }>>();
        const endsOf = async (topic: string) => {
          let found = ends.get(topic);
          if (!found) {
            const offsets = await admin.fetchTopicOffsets(topic);
            found = new Map(offsets.map((p) => [p.partition, { high: Number(p.high), low: Number(p.low) }]));
            ends.set(topic, found);
          }
          return found;
        };
        const lags: ConsumerLag[] = [];
        for (const [groupId, topics] of subscribedTopics) {
          const committed = await admin.fetchOffsets({ groupId, topics: [...topics] });
          for (const { topic, partitions: parts } of committed) {
            const topicEnds = await endsOf(topic);
            for (const { partition, offset } of parts) {
              const end = topicEnds.get(partition);
              if (!end) continue;
              // '-1': nothing committed yet, so the group starts from the oldest retained message.
              const from = Number(offset) < 0 ? end.low : Number(offset);
              lags.push({ groupId, topic, partition, lag: Math.max(0, end.high - from) });
            }
          }
        }
        return lags;
      });
    },

    async ping(): Promise<void> {
      assertOpen();
      const probe = probeKafka.admin();
      try {
        await answeredWithin(pingTimeoutMs, 'pinging', async () => {
          await probe.connect();
          await probe.describeCluster();
        });
      } catch (error) {
        throw new BusUnavailable(
          `Kafka at ${options.brokers.join(',')} does not answer: ${errorMessage(error)}`,
          {
            cause: error,
          },
        );
      } finally {
        await probe.disconnect().catch(() => {});
      }
    },

    async close(): Promise<void> {
      closed = true;
      for (const stopping of consumers.values()) stopping.abort();
      await Promise.allSettled([...consumers.keys()].map((consumer) => consumer.disconnect()));
      consumers.clear();
      await Promise.allSettled([producer.disconnect(), admin.disconnect()]);
    },
  };
}
