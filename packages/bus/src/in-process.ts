/** In-process adapter of the bus port, for the embedded mode (one Node process, memory only). */
import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelayMs } from '@docflow/timing';
import {
  type DeliveryObserver,
  deadLetterOf,
  deadLetterTopic,
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

const DEFAULT_PARTITIONS = 16;
const DEFAULT_RETAINED_PER_TOPIC = 100_000;
const DEFAULT_MAX_OWED_PER_TOPIC = 10_000;
const DURABLE_NOW: Published = { durable: Promise.resolve() };

export interface InProcessBusOptions {
  /** Lanes per topic: a key hashes to one lane, and a group handles a lane in order (default 16). */
  partitions?: number;
  /** Messages kept per topic for groups that join later or resume after a stop (default 100 000). */
  retainedPerTopic?: number;
  /**
   * Messages a topic holds beyond its retention because a group still owes them (default 10 000):
   * at that bound `publish()` waits until the slowest group has handled some (back-pressure), so
   * memory stays bounded however slow a group is.
   */
  maxOwedPerTopic?: number;
  retry?: Partial<HandlerRetryOptions>;
  observer?: DeliveryObserver;
}

interface Entry {
  hash: number;
  partition: number;
  id: string;
  key: string;
  /** The value as JSON: validates it once and hands every handler its own copy. */
  json: string;
  headers?: Record<string, string>;
}

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

interface TopicLog {
  name: string;
  /** Offset of entries[0]. */
  base: number;
  entries: Entry[];
  /** Publishers waiting for the log to have room, first come first served. */
  roomWaiters: Waiter[];
}

interface OffsetWaiter extends Waiter {
  offset: number;
}

interface Lane {
  group: GroupTopic;
  partition: number;
  /** Offset of the next entry to look at; every entry of this lane below it is handled. */
  next: number;
  running: boolean;
  waiters: OffsetWaiter[];
}

/** One consumer group's position in one topic. */
interface GroupTopic {
  groupId: string;
  log: TopicLog;
  members: Member[];
  lanes: Lane[];
}

interface Member {
  handler: MessageHandler;
  groups: GroupTopic[];
  inFlight: Set<Promise<unknown>>;
  stopping?: Promise<void>;
}

type Outcome = { ok: true } | { ok: false; error: unknown };

/** FNV-1a: cheap, stable across runs, spreads short ids well. */
function hashKey(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Creates the in-process bus.
 *
 * Every consumer group gets every message of its topics; inside a group a message goes to the member
 * chosen by the hash of its key, and the messages of one key are handled one after the other in publish
 * order (messages of different keys may be handled concurrently, also by one member). As on Kafka, each
 * group reads the topic's log at its own pace per partition: `publish()` appends and resolves, so a slow
 * group delays neither publication, nor other groups, nor its own other partitions. The log lives in
 * memory, so `durable` resolves only once every group that has members has handled the messages: a
 * relay that saves its checkpoint then gets at-least-once delivery across a crash; stop relays before
 * consumers. A topic holding `maxOwedPerTopic` messages that a group still owes makes `publish()` wait
 * for room. A publish from inside a handler never waits, so handlers publishing to each other cannot
 * deadlock. A failing handler is retried with back-off, then the message goes to `<topic>.dlq`; one
 * that throws DependencyUnavailable is retried for as long as it throws that, and never dead-lettered.
 *
 * @example
 * const bus = createInProcessBus();
 * await bus.subscribe({ groupId: 'workflow', topics: ['docForm'] }, async (m) => apply(m));
 * await bus.publish('docForm', [{ id: event.id, key: docId, value: event }]);
 */
export function createInProcessBus(options: InProcessBusOptions = {}): Bus {
  const partitions = options.partitions ?? DEFAULT_PARTITIONS;
  const retained = options.retainedPerTopic ?? DEFAULT_RETAINED_PER_TOPIC;
  const maxOwed = options.maxOwedPerTopic ?? DEFAULT_MAX_OWED_PER_TOPIC;
  if (!Number.isInteger(partitions) || partitions < 1) throw new RangeError('partitions must be >= 1');
  if (!Number.isInteger(retained) || retained < 1) throw new RangeError('retainedPerTopic must be >= 1');
  if (!Number.isInteger(maxOwed) || maxOwed < 1) throw new RangeError('maxOwedPerTopic must be >= 1');
  const retry = resolveRetry(options.retry);
  const { observer } = options;
  // Trimming in chunks keeps publish O(1) amortised; a chunk no larger than the owed bound, so a full
  // log always has a chunk to drop once the slowest group moves on.
  const trimChunk = Math.min(maxOwed, Math.max(1, Math.ceil(retained / 10)));

  const logs = new Map<string, TopicLog>();
  const groupsByTopic = new Map<string, Map<string, GroupTopic>>();
  const members = new Set<Member>();
  const insideHandler = new AsyncLocalStorage<true>();
  const closing = new AbortController();

  function assertOpen(): void {
    if (closing.signal.aborted) throw new BusUnavailable('the in-process bus is closed');
  }

  function topicLog(topic: string): TopicLog {
    let log = logs.get(topic);
    if (!log) {
      log = { name: topic, base: 0, entries: [], roomWaiters: [] };
      logs.set(topic, log);
    }
    return log;
  }

  function groupsOf(topic: string): Map<string, GroupTopic> {
    let groups = groupsByTopic.get(topic);
    if (!groups) {
      groups = new Map();
      groupsByTopic.set(topic, groups);
    }
    return groups;
  }

  function prepare(message: BusMessage): Entry {
    if (typeof message.id !== 'string' || message.id === '')
      throw new TypeError('message id must be a non-empty string');
    if (typeof message.key !== 'string') throw new TypeError(`message ${message.id}: key must be a string`);
    const json = JSON.stringify(message.value);
    if (json === undefined || !json.startsWith('{')) {
      throw new TypeError(`message ${message.id}: value must be a JSON object`);
    }
    const hash = hashKey(message.key);
    const entry: Entry = { hash, partition: hash % partitions, id: message.id, key: message.key, json };
    if (message.headers) entry.headers = { ...message.headers };
    return entry;
  }

  /** Appends in order; returns the offset of the last entry per lane. */
  function append(log: TopicLog, entries: Entry[]): Map<number, number> {
    const last = new Map<number, number>();
    for (const entry of entries) {
      last.set(entry.partition, log.base + log.entries.length);
      log.entries.push(entry);
    }
    trim(log);
    return last;
  }

  /** Drops the oldest entries beyond the retention, but never one a group with members still owes. */
  function trim(log: TopicLog): void {
    const excess = log.entries.length - retained;
    if (excess < trimChunk) return;
    const active = [...groupsOf(log.name).values()].filter((group) => group.members.length > 0);
    let count = 0;
    while (count < excess) {
      const entry = log.entries[count]!;
      const offset = log.base + count;
      if (active.some((group) => group.lanes[entry.partition]!.next <= offset)) break;
      count++;
    }
    log.entries.splice(0, count);
    log.base += count;
  }

  function full(log: TopicLog): boolean {
    return log.entries.length >= retained + maxOwed;
  }

  /** Resolves once the log has room, after the publishers that were waiting before. */
  function room(log: TopicLog): Promise<void> {
    if (log.roomWaiters.length === 0 && !full(log)) return Promise.resolve();
    return new Promise((resolve, reject) => log.roomWaiters.push({ resolve, reject }));
  }

  /** Lets the next waiting publisher append; it wakes the one after it once it has appended. */
  function freeRoom(log: TopicLog): void {
    if (log.roomWaiters.length === 0) return;
    trim(log);
    if (!full(log)) log.roomWaiters.shift()!.resolve();
  }

  function wake(lane: Lane): void {
    if (!lane.running) void drain(lane);
  }

  function advance(lane: Lane, next: number): void {
    lane.next = next;
    while (lane.waiters.length > 0 && lane.waiters[0]!.offset < next) lane.waiters.shift()!.resolve();
    freeRoom(lane.group.log);
  }

  function nextEntry(lane: Lane): Entry | undefined {
    const log = lane.group.log;
    if (lane.next < log.base) lane.next = log.base;
    while (lane.next < log.base + log.entries.length) {
      const entry = log.entries[lane.next - log.base]!;
      if (entry.partition === lane.partition) return entry;
      lane.next++;
    }
    return undefined;
  }

  function handle(member: Member, entry: Entry, topic: string): Promise<Outcome> {
    const delivered: DeliveredMessage = {
      id: entry.id,
      key: entry.key,
      value: JSON.parse(entry.json),
      topic,
    };
    if (entry.headers) delivered.headers = { ...entry.headers };
    const run = (async (): Promise<Outcome> => {
      try {
        await insideHandler.run(true, () => member.handler(delivered));
        return { ok: true };
      } catch (error) {
        return { ok: false, error };
      }
    })();
    member.inFlight.add(run);
    void run.then(() => member.inFlight.delete(run));
    return run;
  }

  function deadLetter(topic: string, entry: Entry, error: unknown, attempts: number): void {
    const message = deadLetterOf(topic, { ...entry, value: JSON.parse(entry.json) }, error, attempts);
    const dlq = deadLetterTopic(topic);
    const last = append(topicLog(dlq), [prepare(message)]);
    for (const group of groupsOf(dlq).values()) {
      for (const partition of last.keys()) wake(group.lanes[partition]!);
    }
  }

  /** Handles a lane's entries in order until it is empty, has no member to go to, or the bus closes. */
  async function drain(lane: Lane): Promise<void> {
    lane.running = true;
    const topic = lane.group.log.name;
    const { groupId } = lane.group;
    let failures = 0;
    // Calls that threw DependencyUnavailable: they lengthen the pause but never dead-letter.
    let waits = 0;
    try {
      while (!closing.signal.aborted) {
        const entry = nextEntry(lane);
        if (!entry) break;
        const { members: candidates } = lane.group;
        const member = candidates[entry.hash % candidates.length];
        if (!member) break;
        const started = performance.now();
        const outcome = await handle(member, entry, topic);
        observer?.handled(groupId, topic, (performance.now() - started) / 1000, outcome.ok);
        if (closing.signal.aborted && !outcome.ok) break;
        const waiting = !outcome.ok && outcome.error instanceof DependencyUnavailable;
        if (!waiting && (outcome.ok || ++failures >= retry.attempts)) {
          if (!outcome.ok) {
            deadLetter(topic, entry, outcome.error, failures);
            observer?.deadLettered(groupId, topic);
          }
          failures = 0;
          waits = 0;
          advance(lane, lane.next + 1);
          continue;
        }
        observer?.retrying(groupId, topic);
        const pause = backoffDelayMs(waiting ? ++waits : failures, retry);
        // A member that stopped meanwhile is gone at the next turn: the entry stays for the next one.
        await sleep(pause, undefined, { signal: closing.signal }).catch(() => {});
      }
    } finally {
      lane.running = false;
    }
  }

  function releaseWaiters(group: GroupTopic): void {
    const error = closing.signal.aborted ? new BusUnavailable('the in-process bus was closed') : undefined;
    for (const waiter of group.lanes.flatMap((lane) => lane.waiters.splice(0))) {
      if (error) waiter.reject(error);
      else waiter.resolve();
    }
    // What it owed no longer holds the log: a publisher waiting for room may go on.
    if (!error) freeRoom(group.log);
  }

  function joinGroup(groupId: string, topic: string, fromBeginning: boolean): GroupTopic {
    const groups = groupsOf(topic);
    let group = groups.get(groupId);
    if (!group) {
      const log = topicLog(topic);
      const start = fromBeginning ? log.base : log.base + log.entries.length;
      const created: GroupTopic = { groupId, log, members: [], lanes: [] };
      for (let partition = 0; partition < partitions; partition++) {
        created.lanes.push({ group: created, partition, next: start, running: false, waiters: [] });
      }
      groups.set(groupId, created);
      group = created;
    }
    return group;
  }

  /** Entries of each lane at or after its position, from one pass over the group's unhandled tail. */
  function lagOf(group: GroupTopic): ConsumerLag[] {
    const { log, lanes, groupId } = group;
    const counts = lanes.map(() => 0);
    const start = Math.max(log.base, Math.min(...lanes.map((lane) => lane.next)));
    for (let offset = start; offset < log.base + log.entries.length; offset++) {
      const { partition } = log.entries[offset - log.base]!;
      if (offset >= lanes[partition]!.next) counts[partition]!++;
    }
    return counts.map((lag, partition) => ({ groupId, topic: log.name, partition, lag }));
  }

  function stopMember(member: Member): Promise<void> {
    member.stopping ??= (async () => {
      for (const group of member.groups) group.members.splice(group.members.indexOf(member), 1);
      while (member.inFlight.size > 0) await Promise.all(member.inFlight);
      members.delete(member);
      // A group left without members owes nothing now; it resumes from its position when one joins.
      for (const group of member.groups) if (group.members.length === 0) releaseWaiters(group);
    })();
    return member.stopping;
  }

  return {
    async publish(topic: string, messages: BusMessage[]): Promise<Published> {
      assertOpen();
      if (messages.length === 0) return DURABLE_NOW;
      const entries = messages.map(prepare);
      const log = topicLog(topic);
      const fromHandler = insideHandler.getStore() === true;
      if (!fromHandler) await room(log);
      assertOpen();
      const last = append(log, entries);
      freeRoom(log);
      const waits: Promise<void>[] = [];
      for (const group of groupsOf(topic).values()) {
        if (group.members.length === 0) continue;
        for (const [partition, offset] of last) {
          const lane = group.lanes[partition]!;
          if (!fromHandler) {
            waits.push(new Promise((resolve, reject) => lane.waiters.push({ offset, resolve, reject })));
          }
          wake(lane);
        }
      }
      if (waits.length === 0) return DURABLE_NOW;
      const durable = Promise.all(waits).then(() => {});
      // A caller that never looks at `durable` must not see an unhandled rejection when the bus closes.
      durable.catch(() => {});
      return { durable };
    },

    async subscribe(consumer: ConsumerOptions, handler: MessageHandler): Promise<Consumer> {
      assertOpen();
      if (!consumer.groupId) throw new TypeError('groupId must not be empty');
      if (consumer.topics.length === 0) throw new TypeError('topics must not be empty');
      const member: Member = { handler, groups: [], inFlight: new Set() };
      for (const topic of new Set(consumer.topics)) {
        const group = joinGroup(consumer.groupId, topic, consumer.fromBeginning ?? true);
        group.members.push(member);
        member.groups.push(group);
      }
      members.add(member);
      for (const group of member.groups) for (const lane of group.lanes) wake(lane);
      return { stop: () => stopMember(member) };
    },

    async consumerLag(): Promise<ConsumerLag[]> {
      return [...groupsByTopic.values()].flatMap((groups) => [...groups.values()].map(lagOf)).flat();
    },

    async ping(): Promise<void> {
      assertOpen();
    },

    async close(): Promise<void> {
      closing.abort();
      const closed = new BusUnavailable('the in-process bus was closed');
      for (const log of logs.values()) for (const waiter of log.roomWaiters.splice(0)) waiter.reject(closed);
      await Promise.all([...members].map(stopMember));
      for (const groups of groupsByTopic.values()) for (const group of groups.values()) releaseWaiters(group);
    },
  };
}
