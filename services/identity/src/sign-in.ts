/**
 * A person signs in with e-mail and password: the password is checked against the person's argon2id
 * hash (or a dummy one when there is no usable person, so an unknown e-mail, a wrong password and an
 * inactive person take alike time and get the same answer), and a session starts — or the failure is
 * recorded. Either way a `session-<id>` stream holds what happened, for auditors.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  type InternalSignInRequest,
  type SessionEvent,
  SIGN_IN_REFUSED,
  type SignedInPerson,
  sessionStream,
  sessionTokenFor,
} from '@docflow/contracts';
import type { EventMetadata, EventStore } from '@docflow/eventstore';
import { newHexId } from '@docflow/kit';
import { executeCommand, loadAggregate } from '@docflow/kit/eventsourcing';
import { problems } from '@docflow/kit/http';
import type { z } from 'zod';
import { type AccountAggregate, type AccountState, accountStream } from './account';
import { accountIdByEmail } from './email-claims';
import type { KeyStore } from './key-store';
import { verifyPassword } from './secrets';
import { sessionAggregate } from './session';

const signInRefused = () => problems.unauthorized(SIGN_IN_REFUSED, 'Cookie');

const hashSessionToken = (token: string) => createHash('sha256').update(token).digest('hex');

const signedInPerson = (a: AccountState): SignedInPerson => ({
  _id_sys: a.id,
  kind: a.kind,
  displayName: `${a.name_first} ${a.name_last}`.trim(),
  email: a.email,
  roles: a.roles,
});

/** The account whose e-mail this is, if it exists. */
export async function personOf(
  store: EventStore,
  accounts: AccountAggregate,
  keys: KeyStore,
  email: string,
): Promise<AccountState | undefined> {
  const id = await accountIdByEmail(store, keys, email);
  if (!id) return undefined;
  const { state } = await loadAggregate(store, accountStream(id), accounts);
  return state.exists ? { ...state, id } : undefined;
}

/** Whether an account may sign in at all: an active, unerased person. */
export const usablePerson = (a: AccountState | undefined): a is AccountState =>
  a?.kind === 'person' && a.active && !a.erased;

export interface SignInIds {
  requestId: string;
  correlationId: string;
}

/** Where a sign-in came from, and when its session would end. */
export interface SignInClient {
  from: string;
  userAgent: string;
  expiresAt: string;
}

export async function signIn(
  store: EventStore,
  accounts: AccountAggregate,
  keys: KeyStore,
  input: z.infer<typeof InternalSignInRequest>,
  ids: SignInIds,
): Promise<SignedIn> {
  const account = await personOf(store, accounts, keys, input.email);
  const right = await verifyPassword(usablePerson(account) ? account.pwdHash : null, input.password);
  return concludeSignIn(store, account, right, input, ids);
}

export interface SignedIn {
  sessionId: string;
  token: string;
  person: SignedInPerson;
}

/**
 * The one way a session starts, whatever proved who the person is (a password, an identity provider):
 * when `proven` and the account is a usable person, a session starts in a new `session-<id>` stream;
 * otherwise the failure is recorded there and the answer is the same 401 for every cause.
 */
export async function concludeSignIn(
  store: EventStore,
  account: AccountState | undefined,
  proven: boolean,
  input: SignInClient,
  ids: SignInIds,
): Promise<SignedIn> {
  const sessionId = newHexId();
  // The person is the actor of their own sign-in; a failed one has none (nobody proved who they are).
  const metadata = (actor?: string): EventMetadata => ({
    correlationId: ids.correlationId,
    causationId: ids.requestId,
    ...(actor ? { actor } : {}),
    timestamp: new Date().toISOString(),
  });
  const client = { from: input.from, userAgent: input.userAgent };
  const record = (event: SessionEvent, actor?: string) =>
    executeCommand(store, sessionStream(sessionId), sessionAggregate, () => [event], metadata(actor));
  if (!proven || !usablePerson(account)) {
    await record({ type: 'SignInFailed', data: { accountId: account?.id ?? null, ...client } });
    throw signInRefused();
  }
  const token = sessionTokenFor(sessionId, randomBytes(32).toString('base64url'));
  await record(
    {
      type: 'SessionStarted',
      data: {
        accountId: account.id,
        tokenHash: hashSessionToken(token),
        expiresAt: input.expiresAt,
        ...client,
      },
    },
    account.id,
  );
  return { sessionId, token, person: signedInPerson(account) };
}
