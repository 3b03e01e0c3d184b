/** Event metadata for a command handled inside a request. */
import type { EventMetadata } from '@docflow/eventstore';
import type { Principal } from './principal';

export function commandMetadata(
  principal: Principal | undefined,
  ids: { requestId: string; correlationId: string },
  now = new Date(),
): EventMetadata {
  return {
    correlationId: ids.correlationId,
    causationId: ids.requestId,
    ...(principal ? { actor: principal.account } : {}),
    ...(principal?.runAs ? { runAs: principal.runAs } : {}),
    timestamp: now.toISOString(),
  };
}
