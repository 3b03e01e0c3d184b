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
import { createHash, createHmac } from 'node:crypto';
import { EmailClaimed } from '@docflow/contracts';
import type { EventMetadata, EventStore } from '@docflow/eventstore';
import { WrongExpectedRevision } from '@docflow/eventstore';
import { type Aggregate, executeCommand, loadAggregate } from '@docflow/kit/eventsourcing';
import { problems } from '@docflow/kit/http';
import { type AccountAggregate, accountStream } from './account';
import type { KeyStore } from './key-store';

const normalized = (email: string) => email.trim().toLowerCase();

/** The claim stream of `email`, and the one an older version used for it. */
export async function emailClaimStreams(
  keys: KeyStore,
  email: string,
): Promise<{ current: string; legacy: string }> {
  const address = normalized(email);
  return {
    current: `email-${createHmac('sha256', await keys.claimSecret())
      .update(address)
      .digest('hex')}`,
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
  const { current, legacy } = await emailClaimStreams(keys, email);
  return (await lastHolder(store, current)) ?? (await lastHolder(store, legacy));
}

interface ClaimState {
  /** The account that claimed the address last. */
  holder?: string;
}
type ClaimEvent = { type: 'EmailClaimed'; data: { accountId: string } };

const claimAggregate: Aggregate<ClaimState, ClaimEvent> = {
  initial: {},
  evolve: (_state, event) => ({ holder: event.data.accountId }),
  parse(type, data) {
    if (type !== 'EmailClaimed') throw new Error(`unknown e-mail claim event type ${type}`);
    return { type, data: EmailClaimed.parse(data) };
  },
};

const TAKEN = 'an account with this e-mail exists already';

export async function claimEmail(
  store: EventStore,
  accounts: AccountAggregate,
  keys: KeyStore,
  email: string,
  accountId: string,
  metadata: EventMetadata,
): Promise<void> {
  const { current, legacy } = await emailClaimStreams(keys, email);
  const legacyHolder = await lastHolder(store, legacy);
  async function decide(claim: ClaimState): Promise<ClaimEvent[]> {
    for (const holder of [claim.holder, legacyHolder]) {
      if (!holder) continue;
      const { state } = await loadAggregate(store, accountStream(holder), accounts);
      if (state.exists && !state.erased) throw problems.conflict(TAKEN);
    }
    return [{ type: 'EmailClaimed', data: { accountId } }];
  }
  try {
    // A concurrent claim is the answer, not a reason to decide again: its account may not be written yet.
    await executeCommand(store, current, claimAggregate, decide, metadata, { maxAttempts: 1 });
  } catch (err) {
    if (err instanceof WrongExpectedRevision) throw problems.conflict(TAKEN);
    throw err;
  }
}
