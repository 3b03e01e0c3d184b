/**
 * The bootstrap service account `admin`, holding every role. DOCFLOW_ADMIN_KEY keys it at every
 * start; without it a key is generated at the very first start and handed back to be printed once.
 */

import { randomUUID } from 'node:crypto';
import { ADMIN_ACCOUNT_ID, ROLES } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { commandMetadata, executeCommand, loadAggregate } from '@docflow/kit';
import { accountAggregate, accountStream } from './account';
import { decideBootstrapAdmin } from './businessLogic';
import { hashApiKey, newApiKey } from './secrets';

export interface BootstrapResult {
  /** The admin account's revision after bootstrap. */
  revision: number;
  /** The generated key, when one was made (first start without DOCFLOW_ADMIN_KEY). */
  generatedKey?: string;
}

export async function bootstrapAdmin(
  store: EventStore,
  adminKey: string | undefined,
): Promise<BootstrapResult> {
  const stream = accountStream(ADMIN_ACCOUNT_ID);
  const { state, revision } = await loadAggregate(store, stream, accountAggregate);
  if (state.exists && adminKey === undefined) return { revision };
  const key = adminKey ?? newApiKey();
  const id = randomUUID();
  const result = await executeCommand(
    store,
    stream,
    accountAggregate,
    (s) => decideBootstrapAdmin({ id: ADMIN_ACCOUNT_ID, keyHash: hashApiKey(key), roles: [...ROLES] }, s),
    commandMetadata(undefined, { requestId: id, correlationId: id }),
  );
  return adminKey === undefined
    ? { revision: result.revision, generatedKey: key }
    : { revision: result.revision };
}
