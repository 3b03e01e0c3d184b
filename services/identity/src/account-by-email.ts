/**
 * `GET /api/admin/v1/accounts?email=`: the account holding exactly that address now, as a list page
 * filtered like the listing. Found through the address's claim stream, named by a keyed hash of it
 * (email-claims.ts), so no index holds an address in clear; an erased holder no longer matches, and
 * neither does a holder whose address is another (a claim taken over).
 */
import type { AccountListQuery } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import type { AccountState } from './account';
import { accountIdByEmail } from './email-claims';
import type { KeyStore } from './key-store';

export async function accountPageByEmail(
  store: EventStore,
  keys: KeyStore,
  load: (id: string) => Promise<AccountState>,
  { email, kind, active, first }: AccountListQuery,
): Promise<{ total: number; accounts: AccountState[] }> {
  const id = email && (await accountIdByEmail(store, keys, email));
  const account = id ? await load(id) : undefined;
  const found =
    account?.exists &&
    !account.erased &&
    account.email === email &&
    (kind === undefined || account.kind === kind) &&
    (active === undefined || account.active === active);
  return { total: found ? 1 : 0, accounts: found && first === 0 ? [account] : [] };
}
