/** Builders shared by the webhooks service's unit tests. */
import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@docflow/contracts';
import type { DocumentFacts } from './event-mapping';

export const FIXTURE_DOC = '65a1f0c2b3d4e5f601234567';
export const FIXTURE_AT = '2026-11-24T07:00:00.000Z';
/** A memo document in its first approval step. */
export const IN_APPROVAL: DocumentFacts = {
  form: 'memo',
  phase: 'approval',
  status: 'inProgress',
  step: 1,
  iteration: 1,
};

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
