/**
 * svc-run-as naming a person this gateway's read model has not received yet (created a moment ago
 * through another gateway): the request waits for the bus when identity knows the account, and is
 * refused at once when identity does not. A real read model on SQLite; identity is the lookup function.
 */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { DeliveredMessage } from '@docflow/bus';
import { type LocalDb, openLocalDb } from '@docflow/kit/eventsourcing';
import { handleError, type Principal } from '@docflow/kit/http';
import { Hono } from 'hono';
import type { AccountIdLookUp } from './account-lookup';
import { type AccountsReadModel, createAccountsReadModel } from './accounts-read-model';
import { authFailureBrake } from './auth-failures';
import { authenticate, type RunAsLookUps } from './authenticate';

const SERVICE = 'usr-5e000000-0000-4000-8000-000000000001';
const NEW_PERSON = 'usr-0e000000-0000-4000-8000-000000000002';
const NOBODY = 'usr-0f000000-0000-4000-8000-000000000003';
const KEY = 'portal-key';
const WAIT_MS = 2000;

/** An identity event as the bus delivers it. */
function delivered(
  account: string,
  revision: number,
  type: string,
  data: Record<string, unknown>,
): DeliveredMessage {
  return {
    id: randomUUID(),
    key: `account-${account}`,
    topic: 'test.identity',
    value: {
      id: randomUUID(),
      type,
      version: 1,
      streamId: `account-${account}`,
      revision,
      recordedAt: new Date().toISOString(),
      data,
      metadata: { correlationId: 'c', timestamp: new Date().toISOString() },
    },
  };
}
const created = (id: string, kind: 'person' | 'service', roles: string[]) =>
  delivered(id, 1, 'AccountCreated', { id, kind, roles, active: true });

/** The authentication middleware alone, answering with the principal it set. */
function appWith(accounts: AccountsReadModel, lookUps: RunAsLookUps) {
  const app = new Hono<{ Variables: { requestId: string; correlationId: string; principal: Principal } }>()
    .use(async (c, next) => {
      c.set('requestId', 'r');
      c.set('correlationId', 'c');
      await next();
    })
    .use(authenticate(accounts, lookUps, authFailureBrake(0)))
    .get('/', (c) => c.json(c.var.principal));
  app.onError(handleError);
  return (runAs: string) =>
    app.request('/', { headers: { authorization: `Bearer ${KEY}`, 'svc-run-as': runAs } });
}

describe('svc-run-as of an account the bus has not brought yet', () => {
  let db: LocalDb;
  let accounts: AccountsReadModel;
  let asked: string[];
  /** What identity knows: `usr-` ids and e-mails to ids. */
  let identityKnows: Map<string, string>;
  let lookUp: AccountIdLookUp;
  let request: ReturnType<typeof appWith>;

  beforeEach(async () => {
    db = openLocalDb(':memory:');
    accounts = createAccountsReadModel(db);
    await accounts.handle(created(SERVICE, 'service', []));
    await accounts.handle(
      delivered(SERVICE, 2, 'ApiKeyIssued', { keyHash: createHash('sha256').update(KEY).digest('hex') }),
    );
    asked = [];
    identityKnows = new Map();
    lookUp = async (ref) => {
      asked.push(ref);
      return identityKnows.get(ref);
    };
    request = appWith(accounts, { byEmail: lookUp, byId: lookUp, waitMs: WAIT_MS });
  });
  afterEach(() => db.close());

  it('by id: identity knows it, so the request waits until the bus brings it, then runs as that person', async () => {
    identityKnows.set(NEW_PERSON, NEW_PERSON);
    const pending = request(NEW_PERSON);
    await new Promise((r) => setTimeout(r, 50));
    await accounts.handle(created(NEW_PERSON, 'person', ['svcAuditR']));
    const res = await pending;
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {
      account: SERVICE,
      runAs: NEW_PERSON,
      subject: NEW_PERSON,
      roles: ['svcAuditR'],
    });
    assert.deepEqual(asked, [NEW_PERSON]);
  });

  it('by e-mail: identity names the holder, and the request waits for the bus the same way', async () => {
    identityKnows.set('new@example.com', NEW_PERSON);
    const pending = request('new@example.com');
    await new Promise((r) => setTimeout(r, 50));
    await accounts.handle(created(NEW_PERSON, 'person', []));
    const res = await pending;
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as Principal).subject, NEW_PERSON);
  });

  it('an id identity does not know: 403 at once, without waiting', async () => {
    const started = Date.now();
    const res = await request(NOBODY);
    assert.equal(res.status, 403);
    assert.ok(Date.now() - started < WAIT_MS, 'refused without waiting for the bus');
    assert.deepEqual(asked, [NOBODY]);
  });

  it('a malformed usr- id is refused without asking identity; a known person without asking either', async () => {
    assert.equal((await request('usr-not-an-id')).status, 403);
    await accounts.handle(created(NEW_PERSON, 'person', []));
    assert.equal((await request(NEW_PERSON)).status, 200);
    assert.deepEqual(asked, []);
  });

  it('identity knows it but the bus does not bring it in time: 503 with Retry-After, not 403', async () => {
    identityKnows.set(NEW_PERSON, NEW_PERSON);
    const res = await appWith(accounts, { byEmail: lookUp, byId: lookUp, waitMs: 50 })(NEW_PERSON);
    assert.equal(res.status, 503);
    assert.ok(res.headers.get('retry-after'));
    assert.equal(res.headers.get('content-type'), 'application/problem+json');
  });
});
