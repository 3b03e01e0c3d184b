/**
 * The Idempotency-Key store's bound per caller, end to end (issue 29, finding 9): README's "each service
 * account holds at most 20,000 keys and 8 MiB of them within 24 hours; past that a request with a new key
 * is refused with 429 and Retry-After before anything runs, while its kept keys still replay and requests
 * without a key still act". Reaching 20,000 keys takes 20,000 requests, so the test writes the caller's
 * earlier keys straight into the document service's local database (as 20,000 keyed requests an hour
 * ago would have left them) and sends the last ones over HTTP.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { setUpClientSystem } from '../support/client';
import { createDoc } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { startEmbedded, type Target } from '../support/targets';

/** README, "Safe retries". */
const KEYS_PER_CALLER = 20_000;
const BYTES_PER_CALLER = 8 * 1024 * 1024;
const DAY_SECONDS = 24 * 60 * 60;
const AN_HOUR_AGO_MS = 60 * 60 * 1000;

describe('the Idempotency-Key bound per caller [embedded]', { timeout: 300_000 }, () => {
  let target: Target;
  let api: Api;
  let serviceKey: string;

  before(async () => {
    target = await startEmbedded();
    api = apiClient(target.baseUrl);
    const system = await setUpClientSystem(target.baseUrl, target.adminKey, {
      persons: ['author@example.com', 'bob@example.com'],
      form: 'bounded',
      approver: 'bob@example.com',
    });
    serviceKey = system.serviceKey;
  });
  after(() => target?.stop());

  /** A new service account holding no role, and its API key. */
  async function newCaller(name: string): Promise<string> {
    const res = await api('POST', '/api/admin/v1/accounts', {
      key: target.adminKey,
      body: { kind: 'service', email: `${name}@example.com`, name_first: 'S', name_last: name },
    });
    assert.equal(res.status, 201, res.text);
    return res.body.apiKey;
  }
  /** A new document of the author's in approval, and a management move on it by a caller. */
  async function newDocument() {
    const doc = await createDoc(
      target.baseUrl,
      serviceKey,
      'bounded',
      { docForm: { valuesByTags: { subject: 'keys' } }, docResponse: { taskstatus: 100 } },
      { runAs: 'author@example.com' },
    );
    assert.equal(doc.status, 201, doc.text);
    const docId: string = doc.body._id;
    return {
      /** The move by `key` acting for the author, with `idempotencyKey` if given. */
      move: (key: string, taskstatus: number, idempotencyKey?: string) =>
        fetch(`${target.baseUrl}/api/v2/docForm/${docId}/docResponse`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            'svc-run-as': 'author@example.com',
            'content-type': 'application/json',
            ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
          },
          body: JSON.stringify({ docResponse: { taskstatus } }),
        }),
      revision: async () =>
        (await api('GET', `/api/v2/docForm/${docId}`, { key: target.adminKey })).body._meta._rev as number,
    };
  }

  /**
   * Rows an earlier hour of keyed requests by the caller that kept `idempotencyKey` would have left:
   * `rows` more of them, `bytes` each.
   */
  function holdEarlierKeys(idempotencyKey: string, rows: number, bytes: number): void {
    const db = new Database(join(target.dataDir, 'document', 'local.db'));
    try {
      db.pragma('busy_timeout = 10000');
      const { caller } = db
        .prepare('SELECT caller FROM idempotency_answers WHERE key = ?')
        .get(idempotencyKey) as { caller: string };
      const insert = db.prepare(
        `INSERT INTO idempotency_answers (scope, key, caller, state, fingerprint, answer, bytes, created_at)
         VALUES (?, ?, ?, 'done', 'f', '{}', ?, ?)`,
      );
      const at = Date.now() - AN_HOUR_AGO_MS;
      db.transaction(() => {
        for (let i = 0; i < rows; i++) insert.run(`${caller}:earlier`, `earlier-${i}`, caller, bytes, at);
      })();
    } finally {
      db.close();
    }
  }

  async function assertRefused(res: Response): Promise<void> {
    const text = await res.text();
    assert.equal(res.status, 429, text);
    assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
    const retryAfter = Number(res.headers.get('retry-after'));
    // The oldest key was kept an hour ago: it expires in about 23 hours.
    assert.ok(
      retryAfter > DAY_SECONDS - 2 * 3600 && retryAfter <= DAY_SECONDS - 3600,
      `Retry-After ${retryAfter}`,
    );
  }

  it(`a caller holding ${KEYS_PER_CALLER} keys: a new key is 429 with Retry-After and acts not; kept keys replay, requests without a key act, other callers are not held back`, async () => {
    const key = await newCaller('many-keys');
    const { move, revision } = await newDocument();
    const first = randomUUID();
    const kept = await move(key, 101, first);
    assert.equal(kept.status, 200, await kept.text());
    holdEarlierKeys(first, KEYS_PER_CALLER - 2, 100);

    const last = await move(key, 102, randomUUID());
    assert.equal(last.status, 200, `the ${KEYS_PER_CALLER}th key: ${await last.text()}`);
    const rev = await revision();
    await assertRefused(await move(key, 101, randomUUID()));
    assert.equal(await revision(), rev, 'the refused request acted not');

    const replay = await move(key, 101, first);
    assert.equal(replay.status, 200);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(await revision(), rev, 'a replay acts not');
    const unkeyed = await move(key, 101);
    assert.equal(unkeyed.status, 200, await unkeyed.text());
    const other = await move(await newCaller('other'), 102, randomUUID());
    assert.equal(other.status, 200, await other.text());
  });

  it(`a caller holding ${BYTES_PER_CALLER} bytes of keys: a new key is 429`, async () => {
    const key = await newCaller('long-keys');
    const { move, revision } = await newDocument();
    const first = randomUUID();
    const kept = await move(key, 101, first);
    assert.equal(kept.status, 200, await kept.text());
    // 16 rows of 512 KiB, less room than the next key's row takes.
    holdEarlierKeys(first, 16, BYTES_PER_CALLER / 16 - 16);
    const rev = await revision();
    await assertRefused(await move(key, 102, randomUUID()));
    assert.equal(await revision(), rev, 'the refused request acted not');
  });
});
