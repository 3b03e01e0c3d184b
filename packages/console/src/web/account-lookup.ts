/** The account holding an exact e-mail: the administrators' account list, looked up by keyed hash. */
import { enc, get } from './api';
import type { Account } from './model';

/** The account holding exactly `email`, or undefined (none, or erased: an old address finds nobody). */
export async function accountByEmail(email: string): Promise<Account | undefined> {
  const [found] = await get<Account[]>(`/api/admin/v1/accounts?email=${enc(email.trim())}`);
  return found;
}
