/**
 * Creating an account, by an administrator (POST /api/admin/v1/accounts) or at a person's first
 * sign-in through an identity provider that may create persons: the e-mail is claimed first (409 when
 * another account holds it), then the account's stream is started.
 */
import type { AccountCreate } from '@docflow/contracts';
import type { EventMetadata, EventStore } from '@docflow/eventstore';
import { executeCommand } from '@docflow/kit/eventsourcing';
import { type AccountAggregate, accountStream } from './account';
import { decideCreateAccount } from './businessLogic';
import { claimEmail } from './email-claims';
import type { KeyStore } from './key-store';

export async function createAccount(
  store: EventStore,
  accounts: AccountAggregate,
  keys: KeyStore,
  cmd: { id: string; input: AccountCreate; apiKeyHash?: string },
  metadata: EventMetadata,
) {
  await claimEmail(store, accounts, keys, cmd.input.email, cmd.id, metadata);
  return executeCommand(
    store,
    accountStream(cmd.id),
    accounts,
    (state) => decideCreateAccount(cmd, state),
    metadata,
  );
}
