/**
 * Asking identity which account a run-as names. By e-mail: the gateway's read model keeps no e-mail
 * (the identity events carry them sealed), so the gateway asks which account holds the address now (an
 * erased account holds none), and keeps the answer in memory while its holder stays active. By `usr-`
 * id: only when the read model does not know the id, to tell an account the bus has not brought yet
 * from none at all.
 */
import { ResolveResponse } from '@docflow/contracts';
import { callService, type Principal, problemFromResponse, type ServiceClient } from '@docflow/kit/http';

export type AccountIdLookUp = (
  ref: string,
  caller: { principal: Principal; requestId: string; correlationId: string },
) => Promise<string | undefined>;

export function accountIdFromIdentity(identity: ServiceClient, internalToken: string): AccountIdLookUp {
  return async function lookUp(ref, caller) {
    const res = await callService(identity, {
      method: 'POST',
      path: '/internal/v1/resolve',
      body: { refs: [ref] },
      internalToken,
      principal: caller.principal,
      ids: { requestId: caller.requestId, correlationId: caller.correlationId },
    });
    if (!res.ok) throw await problemFromResponse(res);
    return ResolveResponse.parse(await res.json()).accounts[ref]?.id;
  };
}

const CACHED_EMAILS_MAX = 10_000;

/**
 * `lookUp` with the answers kept in memory (never on disk), so a repeated run-as by e-mail costs no
 * call. Only an active holder is answered from memory: an erasure deactivates first, so an address
 * whose holder was erased (and may have a new one) is asked again; misses are never kept.
 */
export function cachedAccountIdByEmail(
  lookUp: AccountIdLookUp,
  isActive: (id: string) => boolean,
): AccountIdLookUp {
  const ids = new Map<string, string>();
  return async function cachedLookUp(email, caller) {
    const key = email.trim().toLowerCase();
    const known = ids.get(key);
    if (known && isActive(known)) return known;
    ids.delete(key);
    const id = await lookUp(email, caller);
    if (id) {
      if (ids.size >= CACHED_EMAILS_MAX) ids.delete(ids.keys().next().value!);
      ids.set(key, id);
    }
    return id;
  };
}
