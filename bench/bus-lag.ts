/**
 * Bus lag benchmark (distributed mode on the local Kafka of `.infra/env`): a service account created
 * through the gateway (identity appends, its relay publishes to Kafka, the gateway's accounts read model
 * consumes) until its new API key authenticates at the gateway, one after another; beside raw kafkajs
 * produce → consume of one message at a time on a fresh topic of the same broker. Bounded by count and time.
 */
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { startDistributed } from '../tests/support/targets';
import { loadEngineEnv } from './engine-env';
import { machine, writeSection } from './results';
import { fixed, loadNote, percentile } from './support';

const SAMPLES = 40;
const MAX_MS = 60_000;
const POLL_MS = 2;

loadEngineEnv();
const brokers = (process.env.KAFKA_BROKERS ?? '').split(',').filter(Boolean);
if (!brokers.every((b) => b.startsWith('127.0.0.1:')) || brokers.length === 0)
  throw new Error('bus-lag needs KAFKA_BROKERS on 127.0.0.1 (run `pnpm infra:up`)');

const started = loadNote();
console.log('distributed docflow');
const docflow = await startDistributed();
const docflowLags: number[] = [];
try {
  const t0 = performance.now();
  const lags: number[] = [];
  while (lags.length <= SAMPLES && performance.now() - t0 < MAX_MS) {
    const res = await fetch(`${docflow.baseUrl}/api/admin/v1/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${docflow.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        kind: 'service',
        email: `bench-${randomBytes(6).toString('hex')}@example.com`,
        name_first: 'Bench',
        name_last: 'Lag',
        roles: [],
      }),
    });
    const body = (await res.json()) as { apiKey?: string };
    if (res.status !== 201 || !body.apiKey) throw new Error(`create account: ${res.status}`);
    const created = performance.now();
    for (;;) {
      const who = await fetch(`${docflow.baseUrl}/api/v2/docForm/view/mydocs?pageSize=1`, {
        headers: { authorization: `Bearer ${body.apiKey}` },
      });
      await who.arrayBuffer();
      if (who.status !== 401) break;
      if (performance.now() - created > 10_000) throw new Error('the new key did not authenticate in 10 s');
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    lags.push(performance.now() - created);
  }
  docflowLags.push(...lags.slice(1));
} finally {
  await docflow.stop();
}

console.log('raw kafkajs produce → consume');
const kafka = new Kafka({ clientId: 'docflow-bench', brokers, logLevel: logLevel.NOTHING });
const topic = `docflow-bench-lag-${randomBytes(6).toString('hex')}`;
const admin = kafka.admin();
const producer = kafka.producer();
const consumer = kafka.consumer({ groupId: topic });
const rawLags: number[] = [];
try {
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
  await Promise.all([producer.connect(), consumer.connect()]);
  await consumer.subscribe({ topic, fromBeginning: true });
  let arrived: (() => void) | undefined;
  await consumer.run({ eachMessage: async () => arrived?.() });
  const t0 = performance.now();
  const lags: number[] = [];
  while (lags.length <= SAMPLES && performance.now() - t0 < MAX_MS) {
    const sent = performance.now();
    const received = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    await producer.send({ topic, acks: -1, messages: [{ value: JSON.stringify({ sent }) }] });
    await received;
    lags.push(performance.now() - sent);
  }
  rawLags.push(...lags.slice(1));
} finally {
  await Promise.allSettled([consumer.disconnect(), producer.disconnect()]);
  await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  await admin.disconnect();
}

const body = `## Bus lag: docflow account → gateway read model beside raw kafkajs

Command: \`pnpm bench\` (this part: \`pnpm exec tsx bench/bus-lag.ts\`) · ${new Date().toISOString()} · ${machine()} · ${started}
Distributed mode (each service its own process, Kafka of \`.infra/env\` on ${brokers.join(',')}). Docflow: from the 201 of
\`POST /api/admin/v1/accounts\` (a service account; identity appends and its relay publishes) until the new API key
authenticates at the gateway (its accounts read model consumed the event), polled every ${POLL_MS} ms; ${docflowLags.length} accounts one
after another. Reference: kafkajs on the same broker, one-partition topic, \`acks=-1\`, from the send until the
consumer's \`eachMessage\` has it; ${rawLags.length} messages one after another. On both sides one more ran first, untimed.

| measure | docflow | raw kafkajs (reference) | ratio |
|---|---|---|---|
| lag p50, ms | ${fixed(percentile(docflowLags, 50))} | ${fixed(percentile(rawLags, 50))} | ${fixed(percentile(docflowLags, 50) / percentile(rawLags, 50))}× |
| lag p99, ms | ${fixed(percentile(docflowLags, 99))} | ${fixed(percentile(rawLags, 99))} | ${fixed(percentile(docflowLags, 99) / percentile(rawLags, 99))}× |
`;
writeSection('bus-lag', body);
console.log(body);
