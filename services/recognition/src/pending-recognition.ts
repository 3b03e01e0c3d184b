/** Asking the document service for the documents whose recognition waits: the job queue's rebuild. */
import { randomUUID } from 'node:crypto';
import { type PendingRecognitionPage, pendingRecognitionRoute } from '@docflow/contracts';
import { internalClient, type Principal, type ServiceClient } from '@docflow/kit/http';

/** The recognition service itself, asking on no one's behalf (the route reads no principal). */
const RECOGNITION_PRINCIPAL: Principal = { account: 'recognition', subject: 'recognition', roles: [] };

/** One page of the documents whose recognition waits after document `after` (the first page without). */
export function pendingRecognitionFromDocument(document: ServiceClient, internalToken: string) {
  const client = internalClient(document, internalToken);
  return (after: string | undefined): Promise<PendingRecognitionPage> => {
    const id = randomUUID();
    return client.call(
      pendingRecognitionRoute,
      { query: after === undefined ? {} : { after } },
      { principal: RECOGNITION_PRINCIPAL, ids: { requestId: id, correlationId: id } },
    );
  };
}
