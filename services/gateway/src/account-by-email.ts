/**
 * Run-as by e-mail: the gateway keeps no e-mail (the identity events carry them sealed), so it asks
 * identity's internal API which account holds the address now (an erased account holds none).
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
