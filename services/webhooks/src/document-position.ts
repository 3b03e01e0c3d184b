/**
 * Asking the document service where a document stood at a revision: the mapping's start for a
 * document this service does not remember (its `webhook_documents` row lost, or the document older
 * than the service). Exact at any moment, unlike a copy of every document taken at start, which a
 * message still on the bus would find already moved past it.
 */
import { randomUUID } from 'node:crypto';
import { DependencyUnavailable } from '@docflow/bus';
import { documentPositionRoute } from '@docflow/contracts';
import { internalClient, type Principal, ProblemError, type ServiceClient } from '@docflow/kit/http';
import type { DocumentFacts } from './event-mapping';

/** The webhooks service itself, asking on no one's behalf (the route reads no principal). */
const WEBHOOKS_PRINCIPAL: Principal = { account: 'webhooks', subject: 'webhooks', roles: [] };

/**
 * The facts of document `docId` as of its revision `rev`. Throws DependencyUnavailable while the
 * document service is away, so the bus waits for it instead of dead-lettering the event; a problem
 * answer (a 404: no such document) as the document service gave it.
 */
export type FactsAt = (docId: string, rev: number) => Promise<DocumentFacts>;

export function factsFromDocument(document: ServiceClient, internalToken: string): FactsAt {
  const client = internalClient(document, internalToken);
  return async (docId, rev) => {
    const id = randomUUID();
    try {
      return await client.call(
        documentPositionRoute,
        { params: { docId }, query: { rev: String(rev) } },
        { principal: WEBHOOKS_PRINCIPAL, ids: { requestId: id, correlationId: id } },
      );
    } catch (error) {
      // A refused connection, a time-out and any 5xx answer all come as a 503 (opaque by design).
      if (error instanceof ProblemError && error.status === 503) {
        throw new DependencyUnavailable('the document service is unavailable', { cause: error });
      }
      throw error;
    }
  };
}
