/** Delivery policy shared by the adapters: retry a failing handler with back-off, then dead-letter. */
import type { BackoffPolicy } from '@docflow/timing';
import type { BusMessage } from './port.js';

/** The pause between calls is the workspace's back-off (default 100 ms doubling up to 2000 ms). */
export interface HandlerRetryOptions extends BackoffPolicy {
  /** Handler calls per message before it goes to the dead-letter topic (default 5). */
  attempts: number;
}

export const DEFAULT_HANDLER_RETRY: HandlerRetryOptions = {
  attempts: 5,
  initialMs: 100,
  maxMs: 2000,
};

/** Told what the consumers do, for metrics. Called synchronously: keep it cheap. */
export interface DeliveryObserver {
  /** One handler call ended (`ok` false: it threw). */
  handled(groupId: string, topic: string, seconds: number, ok: boolean): void;
  /** A failed message is tried again after a pause. */
  retrying(groupId: string, topic: string): void;
  /** A message that kept failing went to `<topic>.dlq`. */
  deadLettered(groupId: string, topic: string): void;
}

/** What a message on `<topic>.dlq` carries: the original message's id and key, and this value. */
export interface DeadLetterValue {
  [field: string]: unknown;
  /** Topic the message was published to. */
  topic: string;
  /** Message of the last error the handler threw. */
  error: string;
  attempts: number;
  /** The original value (the raw text when it could not be decoded). */
  value: unknown;
}

export function resolveRetry(options: Partial<HandlerRetryOptions> = {}): HandlerRetryOptions {
  const retry = { ...DEFAULT_HANDLER_RETRY, ...options };
  if (!Number.isInteger(retry.attempts) || retry.attempts < 1) {
    throw new RangeError(`retry.attempts must be a positive integer, got ${retry.attempts}`);
  }
  return retry;
}

export function deadLetterTopic(topic: string): string {
  return `${topic}.dlq`;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function deadLetterOf(
  topic: string,
  message: { id: string; key: string; value: unknown },
  error: unknown,
  attempts: number,
): BusMessage {
  const value: DeadLetterValue = { topic, error: errorMessage(error), attempts, value: message.value };
  return { id: message.id, key: message.key, value };
}
