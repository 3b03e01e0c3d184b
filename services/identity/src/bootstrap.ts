/**
 * The bootstrap service account `admin`, holding every role. At every start it is made active with
 * every role again; DOCFLOW_ADMIN_KEY keys it, and without that a key is generated at the very first
 * start and handed back to be printed once.
 */

import { randomUUID } from 'node:crypto';
import { ADMIN_ACCOUNT_ID } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { commandMetadata, executeCommand, loadAggregate } from '@docflow/kit/eventsourcing';
import { type AccountAggregate, accountStream } from './account';
import { decideBootstrapAdmin } from './businessLogic';
import { hashApiKey, newApiKey } from './secrets';

export interface BootstrapResult {
  /** The revision of the admin account's newest published event after bootstrap: what the gateway can reach. */
  revision: number;
  /** The generated key, when one was made (first start without DOCFLOW_ADMIN_KEY). */
  generatedKey?: string;
}

export async function bootstrapAdmin(
  store: EventStore,
  accountAggregate: AccountAggregate,
  adminKey: string | undefined,
): Promise<BootstrapResult> {
  const stream = accountStream(ADMIN_ACCOUNT_ID);
  const { state } = await loadAggregate(store, stream, accountAggregate);
  const generatedKey = state.exists || adminKey !== undefined ? undefined : newApiKey(ADMIN_ACCOUNT_ID);
  const key = adminKey ?? generatedKey;
  const id = randomUUID();
  const result = await executeCommand(
    store,
    stream,
    accountAggregate,
    (s) => decideBootstrapAdmin({ keyHash: key && hashApiKey(key) }, s),
    commandMetadata(undefined, { requestId: id, correlationId: id }),
  );
  const revision = result.state.publishedRev;
  return generatedKey ? { revision, generatedKey } : { revision };
}
