/**
 * svc-run-as, and an API key, naming an account this gateway's read model has not received yet
 * (created a moment ago through another gateway, or a gateway still replaying the bus): identity is
 * asked; an active account of the right kind is awaited until the read model holds it as identity has
 * it, anything else is refused at once. The real read model on in-memory SQLite; identity is the
 * lookup function.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { apiKeyFor, type ResolvedAccount } from '@docflow/contracts';
import { createLogger, type Logger } from '@docflow/kit';
import { type LocalDb, openLocalDb } from '@docflow/kit/eventsourcing';
import { handleError, type Principal, problems, type RequestVariables } from '@docflow/kit/http';
import { Hono } from 'hono';
import type { AccountLookUp, LookUpCaller } from './account-lookup';
import { type AccountsReadModel, createAccountsReadModel } from './accounts-read-model';
import { authFailureBrake } from './auth-failures';
import { authenticate } from './authenticate';
import { created, deactivated, delivered } from './test-fixtures';

const SERVICE = 'usr-5e000000-0000-4000-8000-000000000001';
const PERSON = 'usr-0e000000-0000-4000-8000-000000000002';
const NOBODY = 'usr-0f000000-0000-4000-8000-000000000003';
const KEY = 'portal-key';
const WAIT_MS = 2000;
const keyHashOf = (key: string) => createHash('sha256').update(key).digest('hex');

/** What identity answers for an account. */
const resolved = (
  id: string,
  kind: 'person' | 'service',
  active: boolean,
  publishedRev: number,
): ResolvedAccount => ({
  id,
  kind,
  active,
  deputy: null,
  publishedRev,
});

/**
 * Identity as the lookup function: its accounts by `usr-` id and by e-mail, the refs it was asked
 * for, and a promise settled once it was asked (a request that waits for the bus waits from then on).
 */
function fakeIdentity() {
  const asked: string[] = [];
  const callers: LookUpCaller[] = [];
  const atIdentity = new Map<string, ResolvedAccount>();
  let markAsked!: () => void;
  const identityAsked = new Promise<void>((resolve) => {
    markAsked = resolve;
  });
  const lookUp: AccountLookUp = async (ref, caller) => {
    asked.push(ref);
    callers.push(caller);
    markAsked();
    return atIdentity.get(ref);
  };
  return { asked, callers, atIdentity, identityAsked, lookUp };
}

// Each case's read model (in-memory SQLite) and identity, made afresh before it.
let db: LocalDb;
let accounts: AccountsReadModel;
let asked: string[];
let callers: LookUpCaller[];
let atIdentity: Map<string, ResolvedAccount>;
let identityAsked: Promise<void>;
let lookUp: AccountLookUp;

/** What the middleware logged at warn (the request context's logger, as the gateway's app sets it). */
let warnings: string[];
const log = () => {
  const logger: Logger = createLogger('gateway-test', 'silent');
  logger.warn = ((obj: unknown, msg?: string) => {
    warnings.push(msg ?? String(obj));
  }) as Logger['warn'];
  return logger;
};

/** The authentication middleware alone, in an app that answers the principal. */
function authenticationApp(waitMs: number, brake = authFailureBrake(0)) {
  const app = new Hono<{ Variables: RequestVariables & { principal: Principal } }>()
    .use(async (c, next) => {
      c.set('requestId', 'r');
      c.set('correlationId', 'c');
      c.set('log', log());
      await next();
    })
    .use(authenticate(accounts, { byEmail: lookUp, byId: lookUp, waitMs }, brake))
    .get('/', (c) => c.json(c.var.principal));
  app.onError(handleError);
  return app;
}

/** A request with `headers` through a new authenticationApp. */
function authenticated(headers: Record<string, string>, waitMs: number, brake = authFailureBrake(0)) {
  return authenticationApp(waitMs, brake).request('/', { headers });
}

describe('svc-run-as of an account the read model has not received yet', () => {
  beforeEach(async () => {
    db = openLocalDb(':memory:');
    accounts = createAccountsReadModel(db);
    await accounts.handle(created(SERVICE, 'service'));
    await accounts.handle(delivered(SERVICE, 2, 'ApiKeyIssued', { keyHash: keyHashOf(KEY) }));
    ({ asked, callers, atIdentity, identityAsked, lookUp } = fakeIdentity());
  });
  afterEach(() => db.close());

  /** A request running as `runAs` through the authentication middleware alone; it answers the principal. */
  function request(runAs: string, waitMs = WAIT_MS) {
    return authenticated({ authorization: `Bearer ${KEY}`, 'svc-run-as': runAs }, waitMs);
  }

  /** Asserts a 403 problem came at once: without waiting for the bus. */
  async function refusedAtOnce(pending: Response | Promise<Response>, detail: string) {
    const started = performance.now();
    const res = await pending;
    assert.equal(res.status, 403);
    assert.ok(performance.now() - started < WAIT_MS, 'refused without waiting for the bus');
    assert.match(((await res.json()) as { detail: string }).detail, new RegExp(detail));
  }

  it('by id: an active person at identity is awaited until the bus brings them, then runs as them', async () => {
    atIdentity.set(PERSON, resolved(PERSON, 'person', true, 1));
    const pending = request(PERSON);
    await Promise.race([identityAsked, pending]);
    await accounts.handle(created(PERSON, 'person', ['svcAuditR']));
    const res = await pending;
    assert.equal(res.status, 200);
    // The person's svcAuditR does not count: the service account holds no role (run-as adds none).
    assert.deepEqual(await res.json(), {
      account: SERVICE,
      runAs: PERSON,
      subject: PERSON,
      roles: [],
    });
    assert.deepEqual(asked, [PERSON]);
  });

  it('by e-mail: the holder identity names is awaited the same way, and identity is asked once', async () => {
    atIdentity.set('new@example.com', resolved(PERSON, 'person', true, 1));
    const pending = request('new@example.com');
    await Promise.race([identityAsked, pending]);
    await accounts.handle(created(PERSON, 'person'));
    const res = await pending;
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as Principal).subject, PERSON);
    assert.deepEqual(asked, ['new@example.com']);
  });

  it('waits for the revision identity has, not the first: a person created then deactivated is refused', async () => {
    // A gateway replaying the bus from the start meets the creation before the deactivation.
    atIdentity.set(PERSON, resolved(PERSON, 'person', true, 2));
    const pending = request(PERSON);
    await Promise.race([identityAsked, pending]);
    await accounts.handle(created(PERSON, 'person'));
    await accounts.handle(deactivated(PERSON, 2));
    await refusedAtOnce(pending, 'inactive');
  });

  it('refused at once, without waiting: what identity says is inactive, a service account, or nobody', async () => {
    atIdentity.set(PERSON, resolved(PERSON, 'person', false, 2));
    await refusedAtOnce(request(PERSON), 'inactive');
    atIdentity.set('gone@example.com', resolved(PERSON, 'person', false, 2));
    await refusedAtOnce(request('gone@example.com'), 'inactive');
    atIdentity.set(NOBODY, resolved(NOBODY, 'service', true, 2));
    await refusedAtOnce(request(NOBODY), 'no known user');
    atIdentity.delete(NOBODY);
    await refusedAtOnce(request(NOBODY), 'no known user');
    await refusedAtOnce(request('nobody@example.com'), 'no known user');
    assert.deepEqual(asked, [PERSON, 'gone@example.com', NOBODY, NOBODY, 'nobody@example.com']);
  });

  it('what is no usr- id is an e-mail (an address may start with usr-); one no address can be is refused unasked', async () => {
    await accounts.handle(created(PERSON, 'person'));
    atIdentity.set('usr-ops@example.com', resolved(PERSON, 'person', true, 1));
    assert.equal((await request('usr-ops@example.com')).status, 200);
    await refusedAtOnce(request('usr-not-an-id'), 'no known user');
    await refusedAtOnce(request('ab'), 'no known user');
    assert.deepEqual(asked, ['usr-ops@example.com', 'usr-not-an-id']);
  });

  it('a person the read model knows runs without asking identity', async () => {
    await accounts.handle(created(PERSON, 'person'));
    assert.equal((await request(PERSON)).status, 200);
    assert.deepEqual(asked, []);
  });

  it('identity knows an active person but the bus does not bring them in time: 503 with Retry-After, not 403', async () => {
    atIdentity.set(PERSON, resolved(PERSON, 'person', true, 1));
    atIdentity.set('new@example.com', resolved(PERSON, 'person', true, 1));
    for (const runAs of [PERSON, 'new@example.com']) {
      const res = await request(runAs, 50);
      assert.equal(res.status, 503);
      assert.ok(res.headers.get('retry-after'));
      assert.equal(res.headers.get('content-type'), 'application/problem+json');
    }
  });

  it('an identity older than publishedRev: the request waits for the creation of the account', async () => {
    atIdentity.set(PERSON, { id: PERSON, kind: 'person', active: true, deputy: null });
    const pending = request(PERSON);
    await Promise.race([identityAsked, pending]);
    await accounts.handle(created(PERSON, 'person'));
    assert.equal((await pending).status, 200);
  });

  it('identity not answering is 503, not a refusal', async () => {
    lookUp = async () => {
      // What kit's service client throws when the service does not answer.
      throw problems.unavailable('service at identity did not answer');
    };
    const res = await request(PERSON);
    assert.equal(res.status, 503);
    assert.ok(res.headers.get('retry-after'));
  });
});

describe('an API key of a service account the read model has not received yet', () => {
  const NEW = 'usr-5e000000-0000-4000-8000-000000000004';
  const NEW_KEY = apiKeyFor(NEW, 'k'.repeat(43));
  const WRONG_KEY = apiKeyFor(NEW, 'w'.repeat(43));

  beforeEach(() => {
    db = openLocalDb(':memory:');
    accounts = createAccountsReadModel(db);
    ({ asked, callers, atIdentity, identityAsked, lookUp } = fakeIdentity());
    warnings = [];
  });
  afterEach(() => db.close());

  const request = (key: string, waitMs = WAIT_MS, brake = authFailureBrake(0)) =>
    authenticated({ authorization: `Bearer ${key}` }, waitMs, brake);

  /** The account's creation as the bus brings it: created, then its key issued. */
  async function busBrings(id: string, key: string, roles: string[] = []) {
    await accounts.handle(created(id, 'service', roles));
    await accounts.handle(delivered(id, 2, 'ApiKeyIssued', { keyHash: keyHashOf(key) }));
  }

  async function refusedAtOnce(pending: Response | Promise<Response>) {
    const started = performance.now();
    const res = await pending;
    assert.equal(res.status, 401);
    assert.ok(performance.now() - started < WAIT_MS, 'refused without waiting for the bus');
  }

  it('identity is asked about the account the key names; the request waits for the bus, then runs as it', async () => {
    atIdentity.set(NEW, resolved(NEW, 'service', true, 2));
    const pending = request(NEW_KEY);
    await Promise.race([identityAsked, pending]);
    await busBrings(NEW, NEW_KEY, ['svcAuditR']);
    const res = await pending;
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { account: NEW, subject: NEW, roles: ['svcAuditR'] });
    assert.deepEqual(asked, [NEW]);
    // By the gateway itself, with no role: the key has proved nothing yet.
    assert.deepEqual(callers[0]?.principal, { account: 'gateway', subject: 'gateway', roles: [] });
  });

  it("another secret with the account's id is 401: after waiting for the bus, or at once once it came", async () => {
    atIdentity.set(NEW, resolved(NEW, 'service', true, 2));
    const pending = request(WRONG_KEY);
    await Promise.race([identityAsked, pending]);
    await busBrings(NEW, NEW_KEY);
    assert.equal((await pending).status, 401);
    await refusedAtOnce(request(WRONG_KEY));
    assert.deepEqual(asked, [NEW], 'an account the read model has with its key: identity is not asked');
  });

  it('refused at once, without waiting: what identity says is a person, inactive, or nobody', async () => {
    atIdentity.set(NEW, resolved(NEW, 'person', true, 1));
    await refusedAtOnce(request(NEW_KEY));
    atIdentity.set(NEW, resolved(NEW, 'service', false, 3));
    await refusedAtOnce(request(NEW_KEY));
    atIdentity.delete(NEW);
    await refusedAtOnce(request(NEW_KEY));
    assert.deepEqual(asked, [NEW, NEW, NEW]);
  });

  it('identity is not asked for a key of another shape; one naming a person it has as the read model does is refused at once', async () => {
    await accounts.handle(created(PERSON, 'person'));
    await refusedAtOnce(request('portal-key'));
    await refusedAtOnce(request(`dfk_${'k'.repeat(43)}`));
    assert.deepEqual(asked, []);
    // A person's key may be a personal access token issued through another gateway a moment ago.
    atIdentity.set(PERSON, resolved(PERSON, 'person', true, 1));
    await refusedAtOnce(request(apiKeyFor(PERSON, 'k'.repeat(43))));
    assert.deepEqual(asked, [PERSON]);
  });

  it('a service account the read model has without its key yet is awaited the same way', async () => {
    await accounts.handle(created(NEW, 'service'));
    atIdentity.set(NEW, resolved(NEW, 'service', true, 2));
    const pending = request(NEW_KEY);
    await Promise.race([identityAsked, pending]);
    await accounts.handle(delivered(NEW, 2, 'ApiKeyIssued', { keyHash: keyHashOf(NEW_KEY) }));
    assert.equal((await pending).status, 200);
    assert.deepEqual(asked, [NEW]);
  });

  it('an identity older than publishedRev: the request waits for the key, not only the creation', async () => {
    atIdentity.set(NEW, { id: NEW, kind: 'service', active: true, deputy: null });
    const pending = request(NEW_KEY);
    await Promise.race([identityAsked, pending]);
    await accounts.handle(created(NEW, 'service'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await accounts.handle(delivered(NEW, 2, 'ApiKeyIssued', { keyHash: keyHashOf(NEW_KEY) }));
    assert.equal((await pending).status, 200);
  });

  it('requests for one account at once ask identity once', async () => {
    atIdentity.set(NEW, resolved(NEW, 'service', true, 2));
    const app = authenticationApp(WAIT_MS);
    const pending = [NEW_KEY, NEW_KEY, WRONG_KEY].map((key) =>
      app.request('/', { headers: { authorization: `Bearer ${key}` } }),
    );
    await Promise.race([identityAsked, ...pending]);
    await busBrings(NEW, NEW_KEY);
    assert.deepEqual(
      (await Promise.all(pending)).map((r) => r.status),
      [200, 200, 401],
    );
    assert.deepEqual(asked, [NEW]);
  });

  it('the bus slower than the wait, or identity not answering: one 503 with Retry-After, counted by the brake', async () => {
    atIdentity.set(NEW, resolved(NEW, 'service', true, 2));
    const brake = authFailureBrake(2);
    const slow = await request(NEW_KEY, 50, brake);
    lookUp = async () => {
      // What kit's service client throws when the service does not answer (its detail names the host).
      throw problems.unavailable('service at http://identity.internal:8081 did not answer');
    };
    const down = await request(NEW_KEY, 50, brake);
    for (const res of [slow, down]) {
      assert.equal(res.status, 503);
      assert.ok(res.headers.get('retry-after'));
      assert.equal(
        ((await res.json()) as { detail: string }).detail,
        'the API key cannot be checked now; retry shortly',
      );
    }
    assert.deepEqual(warnings, ['could not ask identity about the account an API key names']);
    assert.equal((await request(NEW_KEY, 50, brake)).status, 429, 'past the brake: two failures counted');
  });

  /** A personal access token of PERSON (a key of the person's shape) as the bus brings it, at `rev`. */
  const tokenIssued = (token: string, rev: number, expiresAt: string | null = null) =>
    delivered(PERSON, rev, 'PersonalTokenIssued', {
      tokenId: 'a'.repeat(24),
      name: 'cli',
      keyHash: keyHashOf(token),
      expiresAt,
    });
  const TOKEN = apiKeyFor(PERSON, 't'.repeat(43));

  it('a personal access token issued through another gateway is awaited, then acts as its person', async () => {
    await accounts.handle(created(PERSON, 'person', ['svcAuditR']));
    atIdentity.set(PERSON, resolved(PERSON, 'person', true, 2));
    const pending = request(TOKEN);
    await Promise.race([identityAsked, pending]);
    await accounts.handle(tokenIssued(TOKEN, 2));
    const res = await pending;
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { account: PERSON, subject: PERSON, roles: ['svcAuditR'] });
    assert.deepEqual(asked, [PERSON]);
  });

  it('a personal access token past its expiry, or with svc-run-as, is refused', async () => {
    await accounts.handle(created(PERSON, 'person'));
    await accounts.handle(tokenIssued(TOKEN, 2, new Date(Date.now() - 1000).toISOString()));
    await refusedAtOnce(request(TOKEN));
    const other = apiKeyFor(PERSON, 'u'.repeat(43));
    await accounts.handle(
      delivered(PERSON, 3, 'PersonalTokenIssued', {
        tokenId: 'b'.repeat(24),
        name: 'cli',
        keyHash: keyHashOf(other),
        expiresAt: null,
      }),
    );
    assert.equal((await request(other)).status, 200);
    const runAs = await authenticated({ authorization: `Bearer ${other}`, 'svc-run-as': PERSON }, WAIT_MS);
    assert.equal(runAs.status, 400);
  });
});
