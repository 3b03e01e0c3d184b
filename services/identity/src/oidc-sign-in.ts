/**
 * A person signs in through an identity provider: the gateway has checked the provider's answer and
 * names the person by the e-mail the provider vouched for. The session starts as a password sign-in's
 * does (concludeSignIn); an unknown e-mail, or a person who is inactive or erased, is refused alike —
 * unless the provider may create persons (`create`): then a person unknown here is created first, as
 * the actor of their own creation.
 */
import type { InternalOidcSignInRequest } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { newUsrId } from '@docflow/kit';
import type { z } from 'zod';
import type { AccountAggregate } from './account';
import { createAccount } from './create-account';
import type { KeyStore } from './key-store';
import { concludeSignIn, personOf, type SignedIn, type SignInIds } from './sign-in';

export async function signInVouched(
  store: EventStore,
  accounts: AccountAggregate,
  keys: KeyStore,
  input: z.infer<typeof InternalOidcSignInRequest>,
  ids: SignInIds,
): Promise<SignedIn> {
  let account = await personOf(store, accounts, keys, input.email);
  if (!account && input.create) {
    const id = newUsrId();
    const created = await createAccount(
      store,
      accounts,
      keys,
      { id, input: { kind: 'person', email: input.email, active: true, ...input.create } },
      {
        correlationId: ids.correlationId,
        causationId: ids.requestId,
        actor: id,
        timestamp: new Date().toISOString(),
      },
    );
    account = { ...created.state, id };
  }
  return concludeSignIn(store, account, true, input, ids);
}
