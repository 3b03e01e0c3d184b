/** What the document service asks the identity service: whether an account exists; every deputy; names. */
import { randomUUID } from 'node:crypto';
import {
  type AccountsPage,
  accountsPageRoute,
  resolveAccountsRoute,
  USR_ID_PATTERN,
} from '@docflow/contracts';
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

/** The most refs one resolve call takes (ResolveRequest). */
const RESOLVE_BATCH = 500;

/**
 * The display names of `ids` as identity knows them now (`[erased]` for an erased person), asked
 * each time so that no name is kept here to outlive an erasure; an id identity does not name is left out.
 */
export async function accountNames(
  calls: IdentityCalls,
  ctx: CallContext,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const client = internalClient(calls.identity, calls.internalToken);
  const usrIds = ids.filter((id) => USR_ID_PATTERN.test(id));
  for (let i = 0; i < usrIds.length; i += RESOLVE_BATCH) {
    const refs = usrIds.slice(i, i + RESOLVE_BATCH);
    const { accounts } = await client.call(resolveAccountsRoute, { body: { refs } }, ctx);
    for (const [id, account] of Object.entries(accounts)) if (account.name) names.set(id, account.name);
  }
  return names;
}
