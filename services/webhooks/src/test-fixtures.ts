/** Builders shared by the webhooks service's unit tests. */
import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@docflow/contracts';

export const FIXTURE_DOC = '65a1f0c2b3d4e5f601234567';
export const FIXTURE_AT = '2026-11-24T07:00:00.000Z';

/** One event of a document stream as the bus carries it. */
export function documentEnvelope(
  type: string,
  data: Record<string, unknown>,
  revision: number,
  stream = `docForm-${FIXTURE_DOC}`,
): EventEnvelope {
  return {
    id: randomUUID(),
    type,
    version: 1,
    streamId: stream,
    revision,
    recordedAt: FIXTURE_AT,
    data,
    metadata: { correlationId: 'c', timestamp: FIXTURE_AT },
  };
}
