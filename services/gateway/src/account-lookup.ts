/**
 * Asking identity which account a run-as, or an API key (api-keys.ts), names. By e-mail: the gateway's
 * read model keeps no e-mail (the identity events carry them sealed), so the gateway asks which account
 * holds the address now (an erased account holds none), and keeps the answer in memory while its
 * holder stays active. By `usr-` id: only when the read model does not know the id (or, for a key, has
 * the account without one yet), to tell an account the bus has not brought yet from none at all.
 */
import { randomUUID } from 'node:crypto';
import {
  type AccountsPage,
  accountsPageRoute,
  type ResolvedAccount,
  resolveAccountsRoute,
} from '@docflow/contracts';
import { internalClient, type Principal, type ServiceClient } from '@docflow/kit/http';

/** Who the lookup is made for: their principal and ids go with the call to identity. */
export interface LookUpCaller {
  principal: Principal;
  requestId: string;
  correlationId: string;
}

export type AccountLookUp = (ref: string, caller: LookUpCaller) => Promise<ResolvedAccount | undefined>;

export function accountFromIdentity(identity: ServiceClient, internalToken: string): AccountLookUp {
  const client = internalClient(identity, internalToken);
  return async function lookUp(ref, caller) {
    const { accounts } = await client.call(
      resolveAccountsRoute,
      { body: { refs: [ref] } },
      {
        principal: caller.principal,
        ids: { requestId: caller.requestId, correlationId: caller.correlationId },
      },
    );
    return accounts[ref];
  };
}

/** The gateway itself, asking on no one's behalf (identity reads no principal for these calls). */
export const GATEWAY_PRINCIPAL: Principal = { account: 'gateway', subject: 'gateway', roles: [] };

/** One page of every account from identity, from `first`: the read model's rebuild. */
export function accountsPageFromIdentity(identity: ServiceClient, internalToken: string) {
  const client = internalClient(identity, internalToken);
  return (first: number): Promise<AccountsPage> => {
    const id = randomUUID();
    return client.call(
      accountsPageRoute,
      { query: { first: String(first) } },
      { principal: GATEWAY_PRINCIPAL, ids: { requestId: id, correlationId: id } },
    );
  };
}

const CACHED_EMAILS_MAX = 10_000;

/**
 * `lookUp` with the answers kept in memory (never on disk), so a repeated run-as by e-mail costs no
 * call. Only an active holder is answered from memory: an erasure deactivates first, so an address
 * whose holder was erased (and may have a new one) is asked again; misses are never kept.
 */
export function cachedAccountByEmail(
  lookUp: AccountLookUp,
  isActive: (id: string) => boolean,
): AccountLookUp {
  const accounts = new Map<string, ResolvedAccount>();
  return async function cachedLookUp(email, caller) {
    const key = email.trim().toLowerCase();
    const known = accounts.get(key);
    if (known && isActive(known.id)) return known;
    accounts.delete(key);
    const account = await lookUp(email, caller);
    if (account) {
      if (accounts.size >= CACHED_EMAILS_MAX) accounts.delete(accounts.keys().next().value!);
      accounts.set(key, account);
    }
    return account;
  };
}
