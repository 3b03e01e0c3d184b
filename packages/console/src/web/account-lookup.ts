/** The account a person typed names: by exact e-mail (keyed hash) or by name, the administrators' account list. */
import { ApiError, enc, get } from './api';
import type { Account } from './model';

/** The account holding exactly `email`, or undefined (none, or erased: an old address finds nobody). */
export async function accountByEmail(email: string): Promise<Account | undefined> {
  const [found] = await get<Account[]>(`/api/admin/v1/accounts?email=${enc(email.trim())}`);
  return found;
}

/**
 * The one account `entry` names: a `usr-` id as it is, an e-mail exactly, else a name's first letters
 * (one person only; several is an error that says to pick one). 404 when none.
 */
export async function accountNamed(entry: string): Promise<Account> {
  const typed = entry.trim();
  if (typed.startsWith('usr-')) return get<Account>(`/api/admin/v1/accounts/${enc(typed)}`);
  if (typed.includes('@')) {
    const found = await accountByEmail(typed);
    if (!found) throw new ApiError(404, 'No account holds this e-mail', typed);
    return found;
  }
  const people = await get<Account[]>(`/api/admin/v1/accounts?name=${enc(typed)}&kind=person&pageSize=2`);
  if (people.length === 1) return people[0]!;
  throw people.length
    ? new ApiError(409, `Several people’s names start with “${typed}”`, 'pick one from the list')
    : new ApiError(404, `Nobody’s name starts with “${typed}”`, 'type an e-mail or a usr- id');
}
