/** What the document service asks the identity service: whether an account exists; every deputy. */
import { randomUUID } from 'node:crypto';
import { type AccountsPage, accountsPageRoute, resolveAccountsRoute } from '@docflow/contracts';
import { type CallContext, internalClient, problems, type ServiceClient } from '@docflow/kit/http';

export type { CallContext } from '@docflow/kit/http';

export interface IdentityCalls {
  identity: ServiceClient;
  internalToken: string;
}

/** 400 (at `pointer`) unless `id` names an account; the acting principal is known to exist. */
export async function requireAccount(
  calls: IdentityCalls,
  ctx: CallContext,
  id: string,
  pointer: string,
): Promise<void> {
  if (id === ctx.principal.subject) return;
  // Found by its `usr-` id, an erased account too (as it exists), like the account's own read.
  const { accounts } = await internalClient(calls.identity, calls.internalToken).call(
    resolveAccountsRoute,
    { body: { refs: [id] } },
    ctx,
  );
  if (!accounts[id]) throw problems.badRequest(`no account ${id}`, [{ pointer, message: 'no such account' }]);
}

/** The document service itself, asking on no one's behalf (identity's accounts route reads no principal). */
const SERVICE_PRINCIPAL = { account: 'document', subject: 'document', roles: [] };

/** One page of every account, from `first` (the deputies read model's rebuild). */
export function fetchAccountsPage(calls: IdentityCalls, first: number): Promise<AccountsPage> {
  const id = randomUUID();
  return internalClient(calls.identity, calls.internalToken).call(
    accountsPageRoute,
    { query: { first: String(first) } },
    { principal: SERVICE_PRINCIPAL, ids: { requestId: id, correlationId: id } },
  );
}
