/**
 * The identity service's HTTP API, reached only through the gateway (internal token required).
 * Paths mirror the public ones; authorisation by role happened at the gateway.
 */
import {
  Absence,
  AccountCreate,
  AccountListQuery,
  AccountPatch,
  accountsPageRoute,
  capabilitiesOf,
  type Me,
  noActivePerson,
  PersonUpdate,
  PUBLISHED_REVISION_HEADER,
  resolveAccountsRoute,
  UsrId,
} from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { newUsrId } from '@docflow/kit';
import { commandMetadata, executeCommand, loadAggregate } from '@docflow/kit/eventsourcing';
import { parseWith, problems, readJson, type ServiceEnv, serveInternal } from '@docflow/kit/http';
import { Hono } from 'hono';
import { type AccountAggregate, type AccountState, accountStream } from './account';
import { accountPageByEmail } from './account-by-email';
import { accountPageByName } from './account-by-name';
import type { AccountList } from './account-list';
import { accountsPage } from './accounts-page';
import { decideChangeAccount, decideEraseAccount, decideUpdatePerson } from './businessLogic';
import { createAccount } from './create-account';
import type { KeyStore } from './key-store';
import { toAccount, toPerson } from './representation';
import { accountNamed, resolveAccounts } from './resolve';
import { hashApiKey, hashPassword, newApiKey } from './secrets';

/** How long a listing waits for the account list to catch up before answering from it as it is. */
const LIST_CATCH_UP_MS = 5000;

export function identityApi(
  store: EventStore,
  accountAggregate: AccountAggregate,
  keys: KeyStore,
  accountList: AccountList,
): Hono<ServiceEnv> {
  const app = new Hono<ServiceEnv>();
  async function loadAccount(rawId: string): Promise<AccountState> {
    const id = parseWith('path', UsrId, rawId);
    const { state } = await loadAggregate(store, accountStream(id), accountAggregate);
    return { ...state, id };
  }
  const metadata = (c: { var: ServiceEnv['Variables'] }) => commandMetadata(c.var.principal, c.var);

  app.get('/api/:version{v1|v2}/person/:id', async (c) => {
    const account = await loadAccount(c.req.param('id'));
    if (!account.exists || account.kind !== 'person') throw problems.notFound('no such person');
    return c.json(toPerson(account));
  });

  app.put('/api/v2/me/absence', async (c) => {
    const { deputy: named, from, to } = await readJson(c, Absence);
    const id = c.var.principal.subject;
    const self = await loadAccount(id);
    if (self.kind !== 'person') throw problems.forbidden('only a person can be away: act as the person');
    // Named by id or e-mail as a task's new assignee is (resolveAccounts), and kept by id only.
    const deputyAccount = await accountNamed(store, accountAggregate, keys, named);
    if (deputyAccount?.kind !== 'person' || !deputyAccount.active) throw noActivePerson(named);
    const deputy = deputyAccount.id;
    const result = await executeCommand(
      store,
      accountStream(id),
      accountAggregate,
      (state) =>
        decideUpdatePerson(
          { changes: { deputy: { id: deputy, enabled: true, from, to } }, deputyAccount },
          { ...state, id },
        ),
      metadata(c),
    );
    c.header(PUBLISHED_REVISION_HEADER, String(result.state.publishedRev));
    return c.json(toPerson({ ...result.state, id }));
  });

  app.get('/api/v2/me', async (c) => {
    const principal = c.var.principal;
    const account = await loadAccount(principal.subject);
    if (!account.exists) throw problems.notFound('no such account');
    const { _id_sys, kind, email, name_first, name_last } = toAccount(account);
    const me: Me = {
      _id_sys,
      kind,
      email,
      name_first,
      name_last,
      roles: principal.roles,
      actingThrough: principal.runAs ? { serviceAccount: principal.account } : null,
      capabilities: capabilitiesOf({ roles: principal.roles, isServiceAccount: kind === 'service' }),
    };
    return c.json(me);
  });

  app.post('/api/:version{v1|v2}/person', async (c) => {
    const { _id_sys: id, pwd, deputy, ...fields } = await readJson(c, PersonUpdate);
    const deputyAccount = deputy?.id ? await loadAccount(deputy.id) : undefined;
    const pwdHash = pwd === undefined ? undefined : await hashPassword(pwd);
    const result = await executeCommand(
      store,
      accountStream(id),
      accountAggregate,
      (state) =>
        decideUpdatePerson({ changes: { ...fields, deputy }, pwdHash, deputyAccount }, { ...state, id }),
      metadata(c),
    );
    return c.json(toPerson({ ...result.state, id }));
  });

  app.post('/api/admin/v1/accounts', async (c) => {
    const input = await readJson(c, AccountCreate);
    const id = newUsrId();
    const apiKey = input.kind === 'service' ? newApiKey(id) : undefined;
    const meta = metadata(c);
    const apiKeyHash = apiKey && hashApiKey(apiKey);
    const result = await createAccount(store, accountAggregate, keys, { id, input, apiKeyHash }, meta);
    c.header(PUBLISHED_REVISION_HEADER, String(result.state.publishedRev));
    return c.json({ ...toAccount(result.state), ...(apiKey ? { apiKey } : {}) }, 201);
  });

  app.get('/api/admin/v1/accounts', async (c) => {
    const query = parseWith('query', AccountListQuery, c.req.query());
    if (query.email !== undefined && query.name !== undefined)
      throw problems.badRequest('look an account up by email or by name, not both');
    if (query.email !== undefined) {
      const { total, accounts } = await accountPageByEmail(store, keys, loadAccount, query);
      c.header('svc-total-count', String(total));
      return c.json(accounts.map(toAccount));
    }
    // Read-your-writes: an account created or changed before this request is listed as it is now.
    if (!(await accountList.caughtUp(LIST_CATCH_UP_MS)))
      c.var.log.warn('account list lags behind the event store');
    if (query.name !== undefined) {
      const { total, atLeast, accounts } = await accountPageByName(accountList, loadAccount, query);
      c.header('svc-total-count', String(total));
      c.header('svc-total-count-relation', atLeast ? 'gte' : 'eq');
      return c.json(accounts.map(toAccount));
    }
    const { total, ids } = accountList.page(query);
    const accounts = await Promise.all(ids.map(loadAccount));
    c.header('svc-total-count', String(total));
    return c.json(accounts.map(toAccount));
  });

  app.get('/api/admin/v1/accounts/:id', async (c) => {
    const account = await loadAccount(c.req.param('id'));
    if (!account.exists) throw problems.notFound('no such account');
    return c.json(toAccount(account));
  });

  app.patch('/api/admin/v1/accounts/:id', async (c) => {
    const id = parseWith('path', UsrId, c.req.param('id'));
    const patch = await readJson(c, AccountPatch);
    const result = await executeCommand(
      store,
      accountStream(id),
      accountAggregate,
      (state) => decideChangeAccount(patch, { ...state, id }),
      metadata(c),
    );
    c.header(PUBLISHED_REVISION_HEADER, String(result.state.publishedRev));
    return c.json(toAccount({ ...result.state, id }));
  });

  app.post('/api/admin/v1/accounts/:id/erase', async (c) => {
    const id = parseWith('path', UsrId, c.req.param('id'));
    const result = await executeCommand(
      store,
      accountStream(id),
      accountAggregate,
      (state) => decideEraseAccount({ ...state, id }),
      metadata(c),
    );
    // After the append: a failed append leaves the key; a retry of an erased account deletes it again.
    await keys.shred(id);
    c.header(PUBLISHED_REVISION_HEADER, String(result.state.publishedRev));
    return c.json(toAccount({ ...result.state, id }));
  });

  serveInternal(app, resolveAccountsRoute, async (_c, { body: { refs } }) => ({
    accounts: await resolveAccounts(store, accountAggregate, keys, refs),
  }));

  serveInternal(app, accountsPageRoute, (_c, { query: { first, pageSize } }) =>
    accountsPage(store, accountAggregate, accountList, first, pageSize),
  );

  return app;
}
