/**
 * A person signs in through an identity provider: the gateway has checked the provider's answer and
 * names the person by the e-mail the provider vouched for. The session starts as a password sign-in's
 * does (concludeSignIn); an unknown e-mail, or a person who is inactive or erased, is refused alike.
 */
import type { InternalOidcSignInRequest } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import type { z } from 'zod';
import type { AccountAggregate } from './account';
import type { KeyStore } from './key-store';
import { concludeSignIn, personOf, type SignedIn, type SignInIds } from './sign-in';

export async function signInVouched(
  store: EventStore,
  accounts: AccountAggregate,
  keys: KeyStore,
  input: z.infer<typeof InternalOidcSignInRequest>,
  ids: SignInIds,
): Promise<SignedIn> {
  const account = await personOf(store, accounts, keys, input.email);
  return concludeSignIn(store, account, true, input, ids);
}
