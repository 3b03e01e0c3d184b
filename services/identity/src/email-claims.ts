/**
 * E-mail uniqueness without a shared table: each address has a stream `email-<sha256>` whose
 * `EmailClaimed` names the account holding it. Appending with the expected revision makes two
 * concurrent creations with one address conflict; a claim whose account was never written
 * (a crash between the two appends) or was erased is taken over.
 */
import { randomUUID } from 'node:crypto';
import { EmailClaimed } from '@docflow/contracts';
import type { EventMetadata, EventStore } from '@docflow/eventstore';
import { WrongExpectedRevision } from '@docflow/eventstore';
import { loadAggregate } from '@docflow/kit/eventsourcing';
import { problems } from '@docflow/kit/http';
import { type AccountAggregate, accountStream } from './account';
import { emailClaimStream as claimStream } from './resolve';

export async function claimEmail(
  store: EventStore,
  accounts: AccountAggregate,
  email: string,
  accountId: string,
  metadata: EventMetadata,
): Promise<void> {
  const stream = claimStream(email);
  const claims = await store.readStream(stream);
  const last = claims.at(-1);
  if (last) {
    const holder = EmailClaimed.parse(last.data).accountId;
    const { state } = await loadAggregate(store, accountStream(holder), accounts);
    if (state.exists && !state.erased) throw problems.conflict('an account with this e-mail exists already');
  }
  try {
    await store.append(
      stream,
      [{ id: randomUUID(), type: 'EmailClaimed', version: 1, data: { accountId }, metadata }],
      claims.length,
    );
  } catch (err) {
    if (err instanceof WrongExpectedRevision)
      throw problems.conflict('an account with this e-mail exists already');
    throw err;
  }
}
