/** What the document service asks the identity service: whether an account exists. */
import { resolveAccountsRoute } from '@docflow/contracts';
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
