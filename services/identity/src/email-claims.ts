/**
 * E-mail uniqueness without a shared table: each address has a stream whose `EmailClaimed` names the
 * account holding it. Appending with the expected revision makes two concurrent creations with one
 * address conflict; a claim whose account was never written (a crash between the two appends) or was
 * erased is taken over.
 *
 * The stream is `email-<HMAC-SHA256 of the address>` under a secret of the key store, so the event
 * store alone (a copy, a backup) cannot confirm a guessed address. Claims made before that are
 * `email-<SHA-256 of the address>`; they are still honoured.
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { EmailClaimed } from '@docflow/contracts';
import type { EventMetadata, EventStore } from '@docflow/eventstore';
import { WrongExpectedRevision } from '@docflow/eventstore';
import { loadAggregate } from '@docflow/kit/eventsourcing';
import { problems } from '@docflow/kit/http';
import { type AccountAggregate, accountStream } from './account';
import type { KeyStore } from './key-store';

const normalized = (email: string) => email.trim().toLowerCase();

/** The claim stream of `email`, and the one an older version used for it. */
export function emailClaimStreams(keys: KeyStore, email: string): { current: string; legacy: string } {
  const address = normalized(email);
  return {
    current: `email-${createHmac('sha256', keys.claimSecret()).update(address).digest('hex')}`,
    legacy: `email-${createHash('sha256').update(address).digest('hex')}`,
  };
}

async function lastHolder(store: EventStore, stream: string): Promise<string | undefined> {
  const last = (await store.readStream(stream)).at(-1);
  return last ? EmailClaimed.parse(last.data).accountId : undefined;
}

/** The id of the account that claimed `email` last, if any (erased or not). */
export async function accountIdByEmail(
  store: EventStore,
  keys: KeyStore,
  email: string,
): Promise<string | undefined> {
  const { current, legacy } = emailClaimStreams(keys, email);
  return (await lastHolder(store, current)) ?? (await lastHolder(store, legacy));
}

export async function claimEmail(
  store: EventStore,
  accounts: AccountAggregate,
  keys: KeyStore,
  email: string,
  accountId: string,
  metadata: EventMetadata,
): Promise<void> {
  const { current, legacy } = emailClaimStreams(keys, email);
  const claims = await store.readStream(current);
  const holders = [
    claims.at(-1) && EmailClaimed.parse(claims.at(-1)?.data).accountId,
    await lastHolder(store, legacy),
  ];
  for (const holder of holders) {
    if (!holder) continue;
    const { state } = await loadAggregate(store, accountStream(holder), accounts);
    if (state.exists && !state.erased) throw problems.conflict('an account with this e-mail exists already');
  }
  try {
    await store.append(
      current,
      [{ id: randomUUID(), type: 'EmailClaimed', version: 1, data: { accountId }, metadata }],
      claims.length,
    );
  } catch (err) {
    if (err instanceof WrongExpectedRevision)
      throw problems.conflict('an account with this e-mail exists already');
    throw err;
  }
}
