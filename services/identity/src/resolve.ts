/** Accounts by `usr-` id or e-mail, for other services (participants, deputies), read from the events. */
import { type ResolvedAccount, USR_ID_PATTERN } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { loadAggregate } from '@docflow/kit/eventsourcing';
import { type AccountAggregate, type AccountState, accountStream } from './account';
import { accountIdByEmail } from './email-claims';
import type { KeyStore } from './key-store';

/** "First Last"; an erased person's fields all read `[erased]`, once is enough. */
export const displayName = (state: AccountState): string =>
  state.erased ? state.name_first : [state.name_first, state.name_last].filter(Boolean).join(' ');

/**
 * The account `ref` names, by `usr-` id or e-mail, as it is now; undefined when none does. An erased
 * account is found by its id (inactive), never by the e-mail it had.
 */
export async function accountNamed(
  store: EventStore,
  accounts: AccountAggregate,
  keys: KeyStore,
  ref: string,
): Promise<AccountState | undefined> {
  const byId = USR_ID_PATTERN.test(ref);
  const id = byId ? ref : await accountIdByEmail(store, keys, ref);
  if (!id) return undefined;
  const { state } = await loadAggregate(store, accountStream(id), accounts);
  if (!state.exists || (state.erased && !byId)) return undefined;
  return { ...state, id };
}

/** The accounts `refs` name (accountNamed), by ref. */
export async function resolveAccounts(
  store: EventStore,
  accounts: AccountAggregate,
  keys: KeyStore,
  refs: string[],
): Promise<Record<string, ResolvedAccount>> {
  const out: Record<string, ResolvedAccount> = {};
  for (const ref of new Set(refs)) {
    const state = await accountNamed(store, accounts, keys, ref);
    if (!state) continue;
    out[ref] = {
      id: state.id,
      kind: state.kind,
      active: state.active,
      deputy: state.deputy,
      name: displayName(state),
      publishedRev: state.publishedRev,
    };
  }
  return out;
}
