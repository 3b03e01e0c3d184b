/** What the document service asks the identity service: whether an account exists. */
import {
  callService,
  type Principal,
  problemFromResponse,
  problems,
  type ServiceClient,
} from '@docflow/kit/http';

export interface IdentityCalls {
  identity: ServiceClient;
  internalToken: string;
}

export interface CallContext {
  principal: Principal;
  ids: { requestId: string; correlationId: string };
}

/** 400 (at `pointer`) unless `id` names an account; the acting principal is known to exist. */
export async function requireAccount(
  calls: IdentityCalls,
  ctx: CallContext,
  id: string,
  pointer: string,
): Promise<void> {
  if (id === ctx.principal.subject) return;
  const res = await callService(calls.identity, {
    method: 'GET',
    path: `/api/admin/v1/accounts/${id}`,
    internalToken: calls.internalToken,
    ...ctx,
  });
  if (res.status === 404)
    throw problems.badRequest(`no account ${id}`, [{ pointer, message: 'no such account' }]);
  if (!res.ok) throw await problemFromResponse(res);
}
