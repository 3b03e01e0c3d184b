/**
 * Read-your-writes for account commands at the gateway that made them: the answer waits until the
 * gateway's read model shows the account at the revision identity published, so the caller's next
 * request (authenticating with a new key, running as a new person) finds it here.
 */
import { PUBLISHED_REVISION_HEADER } from '@docflow/contracts';
import type { Logger } from '@docflow/kit';
import type { AccountsReadModel } from './accounts-read-model';

/**
 * The revision comes from identity's header: the answer's `_rev` also counts a password change, which
 * never reaches the bus, so waiting for it would take the whole `waitMs` (an identity without the
 * header: `_rev`). The answer is passed on without that header; after `waitMs` it is passed on anyway,
 * with a warning.
 */
export function readOwnAccountWrite(accounts: AccountsReadModel, waitMs: number, log: Logger) {
  return async function awaitOwnAccountWrite(response: Response): Promise<Response> {
    if (!response.ok) return response;
    const text = await response.text();
    const account = JSON.parse(text) as { _id_sys: string; _meta: { _rev: number } };
    const headers = new Headers(response.headers);
    const header = headers.get(PUBLISHED_REVISION_HEADER);
    const published = header !== null && /^\d+$/.test(header) ? Number(header) : account._meta._rev;
    headers.delete(PUBLISHED_REVISION_HEADER);
    const caughtUp = await accounts.waitForRevision(account._id_sys, published, waitMs);
    if (!caughtUp) log.warn({ account: account._id_sys }, 'account read model lags behind');
    return new Response(text, { status: response.status, headers });
  };
}
