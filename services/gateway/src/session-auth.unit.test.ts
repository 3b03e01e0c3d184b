import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, it } from 'node:test';
import type { DeliveredMessage } from '@docflow/bus';
import { type InternalSessionState, sessionTokenFor } from '@docflow/contracts';
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

/** SessionStarted of SESSION_ID for PERSON at `at`, as the bus delivers it. */
function sessionStarted(at: string): DeliveredMessage {
  return {
    id: randomUUID(),
    key: SESSION_ID,
    topic: 'test.sessions',
    value: {
      id: randomUUID(),
      type: 'SessionStarted',
      version: 1,
      streamId: `session-${SESSION_ID}`,
      revision: 1,
      recordedAt: at,
      data: {
        accountId: PERSON,
        tokenHash: hashSessionToken(TOKEN),
        from: '127.0.0.1',
        userAgent: 'test',
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
      metadata: { correlationId: 'c', timestamp: at },
    },
  };
}

describe('a session started through another gateway, before the bus brought it here', () => {
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
      waitMs: 2000,
      log: createLogger('gateway-test', 'silent'),
    });
    const app = new Hono<{ Variables: RequestVariables & { principal: Principal } }>().get('/', async (c) =>
      c.json(await auth.principal(c, TOKEN)),
    );
    app.onError(handleError);
    return app.request('/');
  }

  it('is checked with identity and, once the bus brings it, authenticates as the person', async () => {
    const started = new Date().toISOString();
    const res = await request(async (id) => {
      assert.equal(id, SESSION_ID);
      // The bus brings the session a moment after identity answered.
      setImmediate(() => void sessions.handleSessionEvent(sessionStarted(started)));
      return { live: true, accountId: PERSON, started } satisfies InternalSessionState;
    });
    assert.equal(res.status, 200, await res.clone().text());
    assert.deepEqual(await res.json(), { account: PERSON, subject: PERSON, roles: ['svcAuditR'] });
  });

  it('is refused at once when identity has no such live session, or its person was deactivated since', async () => {
    assert.equal((await request(async () => undefined)).status, 401);
    const started = new Date(Date.now() - 60_000).toISOString();
    await sessions.handleAccountEvent(deactivated(PERSON, 2));
    await accounts.handle(deactivated(PERSON, 2));
    assert.equal((await request(async () => ({ live: true, accountId: PERSON, started }))).status, 401);
    // Active again: a session started before the deactivation stays ended.
    await accounts.handle(delivered(PERSON, 3, 'AccountActivationChanged', { active: true }));
    const reactivated = await request(async () => ({ live: true, accountId: PERSON, started }));
    assert.equal(reactivated.status, 401);
  });

  it('answers 503 when identity cannot be asked', async () => {
    const res = await request(async () => {
      throw new Error('identity down');
    });
    assert.equal(res.status, 503);
  });
});
