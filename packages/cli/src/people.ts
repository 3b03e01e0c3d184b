/**
 * A person named on the command line by `usr-` id or by e-mail, as the API names them: an id passes
 * as it is; an e-mail is looked up, first as the server resolves `svc-run-as` (one request, for an
 * active person), else exactly in the account list (an administrator's, `?email=`).
 */
import { type DocflowClient, DocflowProblem } from '@docflow/client';
import { CliError, EXIT } from './exit-codes';

export async function accountIdOf(client: DocflowClient, ref: string): Promise<string> {
  if (!ref.includes('@')) return ref;
  try {
    const { data } = await client.api.GET('/api/v2/me', { headers: { 'svc-run-as': ref } });
    if (data?.kind === 'person') return data._id_sys;
  } catch (error) {
    // 403: no active person has that address (or the caller cannot act for others).
    if (!(error instanceof DocflowProblem && error.status === 403)) throw error;
  }
  // Exactly, through identity's keyed hash of the address (an administrator's lookup).
  const { data } = await client.api.GET('/api/admin/v1/accounts', { params: { query: { email: ref } } });
  const found = data?.[0];
  if (!found) throw new CliError(EXIT.notFound, `no account ${ref}`);
  return found._id_sys;
}

/** Each of `refs` as an id (the order kept). */
export const accountIdsOf = (client: DocflowClient, refs: string[]): Promise<string[]> =>
  Promise.all(refs.map((ref) => accountIdOf(client, ref)));
