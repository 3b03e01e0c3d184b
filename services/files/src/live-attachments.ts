/** Asking the document service for its live documents' files: the attachment index's rebuild. */
import { randomUUID } from 'node:crypto';
import { type LiveAttachmentsPage, liveAttachmentsRoute } from '@docflow/contracts';
import { internalClient, type Principal, type ServiceClient } from '@docflow/kit/http';

/** The files service itself, asking on no one's behalf (the route reads no principal). */
const FILES_PRINCIPAL: Principal = { account: 'files', subject: 'files', roles: [] };

/** One page of the live documents' files after document `after` (the first page without one). */
export function liveAttachmentsFromDocument(document: ServiceClient, internalToken: string) {
  const client = internalClient(document, internalToken);
  return (after: string | undefined): Promise<LiveAttachmentsPage> => {
    const id = randomUUID();
    return client.call(
      liveAttachmentsRoute,
      { query: after === undefined ? {} : { after } },
      { principal: FILES_PRINCIPAL, ids: { requestId: id, correlationId: id } },
    );
  };
}
