/** Accounts by `usr-` id or e-mail, for other services (participants, deputies), read from the events. */
import { createHash } from 'node:crypto';
import { EmailClaimed, type ResolvedAccount, USR_ID_PATTERN } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { loadAggregate } from '@docflow/kit/eventsourcing';
import { type AccountAggregate, accountStream } from './account';

export const emailClaimStream = (email: string) =>
  `email-${createHash('sha256').update(email).digest('hex')}`;

/** The id of the account holding `email`, if any. */
export async function accountIdByEmail(store: EventStore, email: string): Promise<string | undefined> {
  const claims = await store.readStream(emailClaimStream(email.trim().toLowerCase()));
  const last = claims.at(-1);
  return last ? EmailClaimed.parse(last.data).accountId : undefined;
}

/** An erased account is found by its id (inactive), never by the e-mail it had. */
export async function resolveAccounts(
  store: EventStore,
  accounts: AccountAggregate,
  refs: string[],
): Promise<Record<string, ResolvedAccount>> {
  const out: Record<string, ResolvedAccount> = {};
  for (const ref of new Set(refs)) {
    const byId = USR_ID_PATTERN.test(ref);
    const id = byId ? ref : await accountIdByEmail(store, ref);
    if (!id) continue;
    const { state } = await loadAggregate(store, accountStream(id), accounts);
    if (!state.exists || (state.erased && !byId)) continue;
    out[ref] = { id, kind: state.kind, active: state.active, deputy: state.deputy };
  }
  return out;
}
