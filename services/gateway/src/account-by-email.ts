/**
 * Run-as by e-mail: the gateway's read model keeps no e-mail (the identity events carry them sealed),
 * so the gateway asks identity's internal API which account holds the address now (an erased account
 * holds none), and keeps the answer in memory while its holder stays active.
 */
import { ResolveResponse } from '@docflow/contracts';
import { callService, type Principal, problemFromResponse, type ServiceClient } from '@docflow/kit/http';

export type AccountIdByEmail = (
  email: string,
  caller: { principal: Principal; requestId: string; correlationId: string },
) => Promise<string | undefined>;

export function accountIdByEmail(identity: ServiceClient, internalToken: string): AccountIdByEmail {
  return async function lookUp(email, caller) {
    const res = await callService(identity, {
      method: 'POST',
      path: '/internal/v1/resolve',
      body: { refs: [email] },
      internalToken,
      principal: caller.principal,
      ids: { requestId: caller.requestId, correlationId: caller.correlationId },
    });
    if (!res.ok) throw await problemFromResponse(res);
    return ResolveResponse.parse(await res.json()).accounts[email]?.id;
  };
}

const CACHED_EMAILS_MAX = 10_000;

/**
 * `lookUp` with the answers kept in memory (never on disk), so a repeated run-as by e-mail costs no
 * call. Only an active holder is answered from memory: an erasure deactivates first, so an address
 * whose holder was erased (and may have a new one) is asked again; misses are never kept.
 */
export function cachedAccountIdByEmail(
  lookUp: AccountIdByEmail,
  isActive: (id: string) => boolean,
): AccountIdByEmail {
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
