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

/** An erased account is found by its id (inactive), never by the e-mail it had. */
export async function resolveAccounts(
  store: EventStore,
  accounts: AccountAggregate,
  keys: KeyStore,
  refs: string[],
): Promise<Record<string, ResolvedAccount>> {
  const out: Record<string, ResolvedAccount> = {};
  for (const ref of new Set(refs)) {
    const byId = USR_ID_PATTERN.test(ref);
    const id = byId ? ref : await accountIdByEmail(store, keys, ref);
    if (!id) continue;
    const { state } = await loadAggregate(store, accountStream(id), accounts);
    if (!state.exists || (state.erased && !byId)) continue;
    out[ref] = {
      id,
      kind: state.kind,
      active: state.active,
      deputy: state.deputy,
      name: displayName(state),
      publishedRev: state.publishedRev,
    };
  }
  return out;
}
