import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { type LiveSession, sessionTokenFor } from '@docflow/contracts';
import { createLogger } from '@docflow/kit';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { handleError, type Principal, type RequestVariables } from '@docflow/kit/http';
import { Hono } from 'hono';
import { type AccountsReadModel, createAccountsReadModel } from './accounts-read-model';
import { authFailureBrake } from './auth-failures';
import type { SessionOptions } from './config';
import { hashSessionToken, type SessionLookUp, sessionAuthenticator, sessionLive } from './session-auth';
import { createSessionsReadModel, type SessionRecord, type SessionsReadModel } from './sessions-read-model';
import { created, deactivated, delivered } from './test-fixtures';

const OPTIONS: SessionOptions = { cookieName: 's', idleMs: 1000, maxMs: 10_000, secure: 'auto' };
const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const PERSON = 'usr-0a000000-0000-4000-8000-000000000001';
const SESSION_ID = 'a'.repeat(24);
const TOKEN = sessionTokenFor(SESSION_ID, 'x'.repeat(43));

describe('sessionLive: the idle and the absolute time-out', () => {
  const session: SessionRecord = {
    id: SESSION_ID,
    accountId: PERSON,
    started: new Date(T0).toISOString(),
    expires: new Date(T0 + OPTIONS.maxMs).toISOString(),
    lastUsed: T0,
    from: '127.0.0.1',
    userAgent: 'test',
  };
  it('is live while used within the idle time, until the absolute time-out', () => {
    assert.equal(sessionLive(session, T0 + 999, OPTIONS), true);
    assert.equal(sessionLive(session, T0 + 1000, OPTIONS), false, 'idle');
    const used = { ...session, lastUsed: T0 + 9500 };
    assert.equal(sessionLive(used, T0 + 9999, OPTIONS), true);
    assert.equal(sessionLive(used, T0 + 10_000, OPTIONS), false, 'past its absolute time-out');
  });
});

/** SESSION_ID of PERSON as identity answers for it, started at `started`. */
const atIdentity = (started: string, token = TOKEN): LiveSession => ({
  accountId: PERSON,
  tokenHash: hashSessionToken(token),
  from: '127.0.0.1',
  userAgent: 'test',
  expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  started,
});

describe('a session this gateway has not received (another gateway started it, the bus lags)', () => {
  let accounts: AccountsReadModel;
  let sessions: SessionsReadModel;
  beforeEach(async () => {
    const db = openLocalDb(':memory:');
    accounts = createAccountsReadModel(db);
    sessions = createSessionsReadModel(db);
    await accounts.handle(created(PERSON, 'person', ['svcAuditR']));
  });

  function request(lookUp: SessionLookUp) {
    const auth = sessionAuthenticator({
      sessions,
      accounts,
      options: { ...OPTIONS, idleMs: 60_000, maxMs: 3_600_000 },
      brake: authFailureBrake(0),
      runAsHeader: 'svc-run-as',
      lookUp,
      log: createLogger('gateway-test', 'silent'),
    });
    const app = new Hono<{ Variables: RequestVariables & { principal: Principal } }>().get('/', async (c) =>
      c.json(await auth.principal(c, TOKEN)),
    );
    app.onError(handleError);
    return app.request('/');
  }

  it('is asked of identity, taken in, and authenticates as the person', async () => {
    const asked: string[] = [];
    const lookUp: SessionLookUp = async (id) => {
      asked.push(id);
      return atIdentity(new Date().toISOString());
    };
    const res = await request(lookUp);
    assert.equal(res.status, 200, await res.clone().text());
    assert.deepEqual(await res.json(), { account: PERSON, subject: PERSON, roles: ['svcAuditR'] });
    assert.equal((await request(lookUp)).status, 200);
    assert.deepEqual(asked, [SESSION_ID], 'asked once: then the read model holds it');
  });

  it('is refused when identity has no such live session, or it is another token of that id', async () => {
    assert.equal((await request(async () => undefined)).status, 401);
    const other = sessionTokenFor(SESSION_ID, 'y'.repeat(43));
    assert.equal((await request(async () => atIdentity(new Date().toISOString(), other))).status, 401);
  });

  it('stays ended when a deactivation here came after its start, even once the person is active again', async () => {
    const started = new Date(Date.now() - 60_000).toISOString();
    await sessions.handleAccountEvent(deactivated(PERSON, 2));
    await accounts.handle(deactivated(PERSON, 2));
    await accounts.handle(delivered(PERSON, 3, 'AccountActivationChanged', { active: true }));
    assert.equal((await request(async () => atIdentity(started))).status, 401);
  });

  it('answers 503 when identity cannot be asked', async () => {
    const res = await request(async () => {
      throw new Error('identity down');
    });
    assert.equal(res.status, 503);
  });
});
