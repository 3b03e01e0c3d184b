/** Every message of a namespace's topics, read back from the beginning with a consumer of its own. */
import { randomBytes } from 'node:crypto';
import { topicsOf } from '@docflow/contracts';
import { Kafka, logLevel } from 'kafkajs';

const READ_TIMEOUT_MS = 60_000;

/** The values (and keys) of every message in `namespace`'s topics, as text. */
export async function readAllTopics(brokers: string[], namespace: string): Promise<string[]> {
  const kafka = new Kafka({ clientId: 'erasure-test', brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const existing = new Set(await admin.listTopics());
  const topics = Object.values(topicsOf(namespace)).filter((t) => existing.has(t));
  // Where each partition ends now: the read is done once every partition reached it.
  const remaining = new Map<string, bigint>();
  for (const topic of topics)
    for (const p of await admin.fetchTopicOffsets(topic))
      if (BigInt(p.high) > BigInt(p.low)) remaining.set(`${topic}/${p.partition}`, BigInt(p.high));
  await admin.disconnect();
  const texts: string[] = [];
  if (remaining.size === 0) return texts;
  const consumer = kafka.consumer({ groupId: `erasure-test-${randomBytes(6).toString('hex')}` });
  await consumer.connect();
  await consumer.subscribe({ topics, fromBeginning: true });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`topics not read within ${READ_TIMEOUT_MS} ms`)),
      READ_TIMEOUT_MS,
    );
    consumer
      .run({
        eachMessage: async ({ topic, partition, message }) => {
          texts.push(`${message.key?.toString('utf8') ?? ''} ${message.value?.toString('utf8') ?? ''}`);
          const key = `${topic}/${partition}`;
          const end = remaining.get(key);
          if (end !== undefined && BigInt(message.offset) + 1n >= end) remaining.delete(key);
          if (remaining.size === 0) {
            clearTimeout(timer);
            resolve();
          }
        },
      })
      .catch(reject);
  });
  await consumer.disconnect();
  return texts;
}
