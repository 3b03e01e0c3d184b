/** identity's internal routes that issue and revoke a person's personal access tokens. */
import { internalIssueTokenRoute, internalRevokeTokenRoute } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { newHexId } from '@docflow/kit';
import { commandMetadata, executeCommand } from '@docflow/kit/eventsourcing';
import { type ServiceEnv, serveInternal } from '@docflow/kit/http';
import { Hono } from 'hono';
import { type AccountAggregate, accountStream } from './account';
import { decideIssuePersonalToken, decideRevokePersonalToken } from './personal-tokens';
import { hashApiKey, newApiKey } from './secrets';

export function personalTokensApi(store: EventStore, accounts: AccountAggregate): Hono<ServiceEnv> {
  const app = new Hono<ServiceEnv>();
  serveInternal(app, internalIssueTokenRoute, async (c, { params, body }) => {
    const tokenId = newHexId();
    // An API key of the person: the same shape and hash as a service account's (api-keys.ts).
    const token = newApiKey(params.id);
    const result = await executeCommand(
      store,
      accountStream(params.id),
      accounts,
      (state) =>
        decideIssuePersonalToken(
          { tokenId, name: body.name, keyHash: hashApiKey(token), expiresAt: body.expiresAt },
          { ...state, id: params.id },
        ),
      commandMetadata(c.var.principal, c.var),
    );
    const issued = result.state.tokens.find((t) => t.id === tokenId)!;
    const { keyHash: _hash, ...shown } = issued;
    return { publishedRev: result.state.publishedRev, token: { ...shown, token } };
  });
  serveInternal(app, internalRevokeTokenRoute, async (c, { params }) => {
    const result = await executeCommand(
      store,
      accountStream(params.id),
      accounts,
      (state) => decideRevokePersonalToken(params.tokenId, state),
      commandMetadata(c.var.principal, c.var),
    );
    return { publishedRev: result.state.publishedRev };
  });
  return app;
}
