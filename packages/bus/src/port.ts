/** The message bus port: what every adapter (in-process, Kafka) guarantees. */

export interface BusMessage {
  /** Unique id of the message (the event id); consumers dedupe by it. */
  id: string;
  /** Partitioning key: messages with the same key are delivered in publish order (document id). */
  key: string;
  /** JSON-serialisable payload. */
  value: Record<string, unknown>;
  /** Delivered with the message beside its value (W3C `traceparent`/`tracestate`); names are lowercase. */
  headers?: Record<string, string>;
}

export interface DeliveredMessage extends BusMessage {
  topic: string;
}

/**
 * Handles one message. Delivery is at-least-once: a message is re-delivered when the handler
 * throws or the consumer dies before the handler finished, so handlers must be idempotent. A handler
 * that keeps throwing goes to `<topic>.dlq` after a few attempts, unless it throws DependencyUnavailable.
 */
export type MessageHandler = (message: DeliveredMessage) => Promise<void>;

export interface ConsumerOptions {
  /** Consumers in the same group share the work: each message goes to one member of the group. */
  groupId: string;
  topics: string[];
  /** Start from the oldest retained message when the group has no committed offset (default true). */
  fromBeginning?: boolean;
}

export interface Consumer {
  /** Stops after the messages in hand are handled (and committed). */
  stop(): Promise<void>;
}

/** Messages a consumer group has not handled yet in one partition of a topic. */
export interface ConsumerLag {
  groupId: string;
  topic: string;
  partition: number;
  lag: number;
}

/** What `publish()` resolves to once the bus has accepted the messages, in order. */
export interface Published {
  /**
   * Resolves once no crash can lose the messages any more: Kafka at once (acks=all); the in-memory
   * bus once every group has handled them. A relay saves its checkpoint only then. Rejects with
   * BusUnavailable when the bus closes first.
   */
  durable: Promise<void>;
}

export interface Bus {
  /**
   * Resolves once the bus has accepted every message, without waiting for any consumer; waits while
   * the bus has no room for them (back-pressure). Messages of one key are delivered in publish order.
   */
  publish(topic: string, messages: BusMessage[]): Promise<Published>;
  subscribe(options: ConsumerOptions, handler: MessageHandler): Promise<Consumer>;
  /** The lag of every group this bus has subscribed, per partition (a stopped member's group too). */
  consumerLag(): Promise<ConsumerLag[]>;
  /** Resolves when the broker answers; throws BusUnavailable otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class BusUnavailable extends Error {
  override readonly name = 'BusUnavailable';
}

/**
 * What a handler throws when something it needs is away (another service restarting): the bus calls it
 * again with back-off for as long as that lasts, without counting the attempt toward the dead-letter
 * topic, and a stopping consumer leaves the message unhandled, to be delivered again. The messages of
 * that key (and partition) wait meanwhile, as their order requires.
 */
export class DependencyUnavailable extends Error {
  override readonly name = 'DependencyUnavailable';
}
