/**
 * Every account as other services keep it (kind, roles, active, key hash, personal tokens, deputy), a page at a time,
 * read from the events: what the gateway's accounts and the document service's deputies are rebuilt
 * from when their local database is new or lost.
 */
import type { AccountsPage } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { loadAggregate } from '@docflow/kit/eventsourcing';
import { problems } from '@docflow/kit/http';
import { type AccountAggregate, accountStream } from './account';
import type { AccountList } from './account-list';

/** How long a page waits for the account list to catch up; a list behind answers 503 (retried). */
const CATCH_UP_MS = 5000;

export async function accountsPage(
  store: EventStore,
  accounts: AccountAggregate,
  accountList: AccountList,
  first: number,
  pageSize: number,
): Promise<AccountsPage> {
  // A page of a list behind the store could leave an account out of a rebuild: no answer instead.
  if (!(await accountList.caughtUp(CATCH_UP_MS)))
    throw problems.unavailable('the account list is catching up');
  const { ids } = accountList.page({ first, pageSize });
  const page: AccountsPage['accounts'] = [];
  for (const id of ids) {
    const { state, revision } = await loadAggregate(store, accountStream(id), accounts);
    const { kind, active, roles, apiKeyHash: keyHash, deputy, tokens: personalTokens } = state;
    page.push({ id, kind, active, roles, keyHash, deputy, personalTokens, revision });
  }
  return { accounts: page, next: ids.length === pageSize ? first + ids.length : null };
}
