/**
 * The answer to an account command waits for the revision identity published, not the answer's
 * `_rev` (which counts a password change the bus never carries), and leaves the gateway without the
 * internal header. The real read model on in-memory SQLite; identity's answer is made here.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { PUBLISHED_REVISION_HEADER } from '@docflow/contracts';
import { createLogger } from '@docflow/kit';
import { type LocalDb, openLocalDb } from '@docflow/kit/eventsourcing';
import { type AccountsReadModel, createAccountsReadModel } from './accounts-read-model';
import { readOwnAccountWrite } from './own-account-write';
import { created, deactivated } from './test-fixtures';

const PERSON = 'usr-0e000000-0000-4000-8000-000000000002';
/** Long enough that a wait for a revision the read model never reaches outlasts the test's own timeout. */
const LONG_WAIT_MS = 60_000;

/** identity's answer for PERSON at `rev`, naming `published` in the header when given. */
function identityAnswer(rev: number, published?: number): Response {
  const headers = new Headers({ 'content-type': 'application/json' });
  if (published !== undefined) headers.set(PUBLISHED_REVISION_HEADER, String(published));
  return new Response(JSON.stringify({ _id_sys: PERSON, _meta: { _rev: rev } }), { status: 200, headers });
}

describe('an account command answered once the read model has its effect', { timeout: 10_000 }, () => {
  let db: LocalDb;
  let accounts: AccountsReadModel;
  let warnings: string[];
  let answer: (waitMs: number) => ReturnType<typeof readOwnAccountWrite>;

  beforeEach(async () => {
    db = openLocalDb(':memory:');
    accounts = createAccountsReadModel(db);
    await accounts.handle(created(PERSON, 'person'));
    warnings = [];
    const log = createLogger('test', 'warn', { write: (line: string) => warnings.push(line) });
    answer = (waitMs) => readOwnAccountWrite(accounts, waitMs, log);
  });
  afterEach(() => db.close());

  it('a password change is no revision to wait for: answered at once, without the internal header', async () => {
    // `_rev` 2 is the password change; the newest published event is the creation.
    const res = await answer(LONG_WAIT_MS)(identityAnswer(2, 1));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get(PUBLISHED_REVISION_HEADER), null);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.deepEqual(await res.json(), { _id_sys: PERSON, _meta: { _rev: 2 } });
    assert.deepEqual(warnings, []);
  });

  it('waits until the bus brings the published revision', async () => {
    const pending = answer(LONG_WAIT_MS)(identityAnswer(2, 2));
    let answered = false;
    void pending.then(() => {
      answered = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(answered, false, 'it waits while the read model is behind');
    await accounts.handle(deactivated(PERSON, 2));
    assert.equal((await pending).status, 200);
    assert.deepEqual(warnings, []);
  });

  it('an identity without the header: waits for `_rev`, and answers anyway after the wait, with a warning', async () => {
    const res = await answer(50)(identityAnswer(2));
    assert.equal(res.status, 200);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /account read model lags behind/);
  });

  it('a refusal is passed on as it is, without waiting', async () => {
    const refusal = new Response('{"status":409}', { status: 409 });
    assert.equal(await answer(LONG_WAIT_MS)(refusal), refusal);
  });
});
