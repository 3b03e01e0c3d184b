/** identity's internal sign-in routes: check a password and start a session, read a session, end one. */
import {
  internalEndSessionRoute,
  internalOidcSignInRoute,
  internalSessionRoute,
  internalSignInRoute,
  sessionStream,
} from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { commandMetadata, executeCommand, loadAggregate } from '@docflow/kit/eventsourcing';
import { problems, type ServiceEnv, serveInternal } from '@docflow/kit/http';
import { Hono } from 'hono';
import { type AccountAggregate, accountStream } from './account';
import type { KeyStore } from './key-store';
import { signInVouched } from './oidc-sign-in';
import { decideEndSession, liveSession, sessionAggregate, sessionsCutOff } from './session';
import { signIn } from './sign-in';

export function signInApi(store: EventStore, accounts: AccountAggregate, keys: KeyStore): Hono<ServiceEnv> {
  const app = new Hono<ServiceEnv>();
  serveInternal(app, internalSignInRoute, (c, { body }) => signIn(store, accounts, keys, body, c.var));
  serveInternal(app, internalOidcSignInRoute, (c, { body }) =>
    signInVouched(store, accounts, keys, body, c.var),
  );
  serveInternal(app, internalSessionRoute, async (_c, { params }) => {
    const { state } = await loadAggregate(store, sessionStream(params.sessionId), sessionAggregate);
    const live =
      state.accountId === null
        ? undefined
        : liveSession(
            state,
            (await loadAggregate(store, accountStream(state.accountId), accounts)).state,
            sessionsCutOff(await store.readStream(accountStream(state.accountId))),
          );
    if (!live) throw problems.notFound('no such live session');
    return live;
  });
  serveInternal(app, internalEndSessionRoute, async (c, { params, body }) => {
    const by = c.var.principal.subject;
    await executeCommand(
      store,
      sessionStream(params.sessionId),
      sessionAggregate,
      (state) => decideEndSession({ ...body, by }, state),
      commandMetadata(c.var.principal, c.var),
    );
  });
  return app;
}
