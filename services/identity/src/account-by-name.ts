/**
 * `GET /api/admin/v1/accounts?name=`: the accounts a word of whose name starts with a prefix. No index
 * holds a name (erasing shreds the key that seals it, docs/decisions.md "People found by name"): the
 * newest accounts of the account list are loaded, their names decrypted and matched in memory, and
 * nothing of them is kept after the answer. Bounded by NAME_SCAN_MAX accounts a lookup reads.
 */
import type { AccountListQuery } from '@docflow/contracts';
import type { AccountState } from './account';
import type { AccountList } from './account-list';

/** The most accounts one lookup loads and decrypts, newest first; older ones are not found by name. */
export const NAME_SCAN_MAX = 2_000;
/** Accounts loaded at once. */
const LOAD_BATCH = 50;

/** `Élodie` → `elodie`: case and accents ignored. */
const folded = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** Whether a word of the account's name (or the whole name) starts with `prefix` (folded). */
export function nameStartsWith(account: Pick<AccountState, 'name_first' | 'name_last'>, prefix: string) {
  const name = folded(`${account.name_first} ${account.name_last}`);
  return name.startsWith(prefix) || name.split(/\s+/).some((word) => word.startsWith(prefix));
}

export async function accountPageByName(
  list: AccountList,
  load: (id: string) => Promise<AccountState>,
  { name = '', kind, active, first, pageSize }: AccountListQuery,
): Promise<{ total: number; atLeast: boolean; accounts: AccountState[] }> {
  const prefix = folded(name.trim());
  const scanned = list.page({ first: 0, pageSize: NAME_SCAN_MAX, kind, active, order: 'newest' });
  const matched: AccountState[] = [];
  for (let i = 0; i < scanned.ids.length; i += LOAD_BATCH) {
    const loaded = await Promise.all(scanned.ids.slice(i, i + LOAD_BATCH).map(load));
    matched.push(...loaded.filter((a) => a.exists && !a.erased && nameStartsWith(a, prefix)));
  }
  return {
    total: matched.length,
    atLeast: scanned.total > scanned.ids.length,
    accounts: matched.slice(first, first + pageSize),
  };
}
