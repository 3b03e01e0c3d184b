/** The envelope every event carries on the bus: the store's record, serialisable as JSON. */
import { z } from '@hono/zod-openapi';
import { upcast } from './upcasters';

export const EventMetadataSchema = z.looseObject({
  correlationId: z.string(),
  causationId: z.string().optional(),
  actor: z.string().optional(),
  runAs: z.string().optional(),
  timestamp: z.string(),
  /** W3C `traceparent` of the trace the event was appended in. */
  traceparent: z.string().optional(),
});

const EnvelopeFields = z.object({
  id: z.uuid(),
  type: z.string(),
  version: z.number().int().min(1),
  streamId: z.string(),
  revision: z.number().int().min(1),
  recordedAt: z.string(),
  data: z.record(z.string(), z.unknown()),
  metadata: EventMetadataSchema,
});

/**
 * Parsing an envelope from the bus upcasts its event to the current version of its type
 * (upcasters/), so every consumer reads the current layout, whichever release published it.
 */
export const EventEnvelope = EnvelopeFields.transform(upcast);
export type EventEnvelope = z.infer<typeof EnvelopeFields>;

/**
 * Bus topics, one per owning service, under a namespace so that several deployments (or test runs)
 * can share one Kafka cluster.
 */
export function topicsOf(namespace: string) {
  return {
    identity: `${namespace}.identity`,
    document: `${namespace}.document`,
    files: `${namespace}.files`,
    workflow: `${namespace}.workflow`,
    recognition: `${namespace}.recognition`,
    /** identity's `session-` streams: sign-ins, sign-outs and failed sign-ins. */
    sessions: `${namespace}.sessions`,
  } as const;
}
export type Topics = ReturnType<typeof topicsOf>;

/**
 * An event's place in the append that wrote it (`metadata.append`), on the streams whose relay
 * publishes each append whole: the facts one workflow command decided reach the bus as one message.
 */
export const AppendPlace = z.object({
  index: z.number().int().min(0),
  count: z.number().int().min(1),
});
export type AppendPlace = z.infer<typeof AppendPlace>;

/** One message for one append: its events, in order. */
export const AppendEnvelope = z.object({ events: z.array(EventEnvelope).min(1) });
export type AppendEnvelope = z.infer<typeof AppendEnvelope>;

/**
 * The events of a message on a topic relayed by whole appends; a message an earlier release relayed
 * carries one event bare, and reads as an append of one.
 */
export function eventsOfAppendMessage(value: unknown): EventEnvelope[] {
  return typeof value === 'object' && value !== null && 'events' in value
    ? AppendEnvelope.parse(value).events
    : [EventEnvelope.parse(value)];
}
