/** The envelope every event carries on the bus: the store's record, serialisable as JSON. */
import { z } from '@hono/zod-openapi';

export const EventMetadataSchema = z.looseObject({
  correlationId: z.string(),
  causationId: z.string().optional(),
  actor: z.string().optional(),
  runAs: z.string().optional(),
  timestamp: z.string(),
  /** W3C `traceparent` of the trace the event was appended in. */
  traceparent: z.string().optional(),
});

export const EventEnvelope = z.object({
  id: z.uuid(),
  type: z.string(),
  version: z.number().int().min(1),
  streamId: z.string(),
  revision: z.number().int().min(1),
  recordedAt: z.string(),
  data: z.record(z.string(), z.unknown()),
  metadata: EventMetadataSchema,
});
export type EventEnvelope = z.infer<typeof EventEnvelope>;

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
  } as const;
}
export type Topics = ReturnType<typeof topicsOf>;
