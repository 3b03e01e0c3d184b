/**
 * The Idempotency-Key store under a hostile caller (issue 29, finding 9): many keyed writes on a large
 * document keep the store small (it keeps a reference to the answer, not the document), and a replay
 * still answers the first answer byte for byte. The bound per caller and its 429 are covered where the
 * bound is small enough to reach: services/document/src/idempotency/*.unit.test.ts.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { setUpClientSystem } from '../support/client';
import { multipart } from '../support/documents';
import { startEmbedded, type Target } from '../support/targets';

/** Nine values of the largest size a string tag takes: a document of about 900 kB. */
const LARGE_TAGS = Array.from({ length: 9 }, (_, i) => `t${i}`);
const LARGE_VALUES = Object.fromEntries(LARGE_TAGS.map((t) => [t, 'x'.repeat(100_000)]));
const KEYED_MOVES = 20;

describe('hostile Idempotency-Key [embedded]', { timeout: 300_000 }, () => {
  let target: Target;
  let serviceKey: string;

  /** Bytes the document service's local database spends on idempotency tables and indexes. */
  const idempotencyBytes = () => {
    const db = new Database(join(target.dataDir, 'document', 'local.db'), { readonly: true });
    try {
      const row = db
        .prepare("SELECT coalesce(sum(pgsize), 0) AS bytes FROM dbstat WHERE name LIKE 'idempotency%'")
        .get() as { bytes: number };
      return row.bytes;
    } finally {
      db.close();
    }
  };
  const send = (
    path: string,
    init: { method: string; key?: string; body: FormData | string; json?: boolean },
  ) =>
    fetch(`${target.baseUrl}${path}`, {
      method: init.method,
      headers: {
        authorization: `Bearer ${serviceKey}`,
        'svc-run-as': 'author@example.com',
        ...(init.key ? { 'idempotency-key': init.key } : {}),
        ...(init.json ? { 'content-type': 'application/json' } : {}),
      },
      body: init.body,
    });
  const create = (key: string) =>
    send('/api/v2/docForm/form/large', {
      method: 'POST',
      key,
      body: multipart({
        docForm: { valuesByTags: LARGE_VALUES },
        docResponse: { taskstatus: 100 },
      }),
    });
  const manage = (id: string, taskstatus: number, key: string) =>
    send(`/api/v2/docForm/${id}/docResponse`, {
      method: 'POST',
      key,
      json: true,
      body: JSON.stringify({ docResponse: { taskstatus } }),
    });

  before(async () => {
    target = await startEmbedded();
    const system = await setUpClientSystem(target.baseUrl, target.adminKey, {
      persons: ['author@example.com', 'bob@example.com'],
      form: 'idem',
      approver: 'bob@example.com',
    });
    serviceKey = system.serviceKey;
    const { response } = await system.admin.api.PUT('/api/admin/v1/forms/{formName}', {
      params: { path: { formName: 'large' } },
      body: {
        name: 'large',
        title: 'Large',
        formsystype: 9,
        tags: Object.fromEntries(LARGE_TAGS.map((t) => [t, 'string' as const])),
        workflow: { approval: { stages: [{ participants: ['bob@example.com'] }] } },
      },
    });
    assert.ok(response.ok);
  });
  after(() => target?.stop());

  it(`${KEYED_MOVES} keyed moves on a 1 MB document keep the store small; replays answer the first answers`, async () => {
    const createKey = randomUUID();
    const created = await create(createKey);
    const createdText = await created.text();
    assert.equal(created.status, 201, createdText);
    const id = (JSON.parse(createdText) as { _id: string })._id;
    const before = idempotencyBytes();

    const firstKey = randomUUID();
    let firstText = '';
    for (let i = 0; i < KEYED_MOVES; i++) {
      const key = i === 0 ? firstKey : randomUUID();
      const res = await manage(id, i % 2 === 0 ? 101 : 102, key);
      assert.equal(res.status, 200, `move ${i}`);
      const text = await res.text();
      if (i === 0) firstText = text;
    }
    const grown = idempotencyBytes() - before;
    assert.ok(grown < 64 * 1024, `the store grew by ${grown} bytes for ${KEYED_MOVES} keyed moves`);

    const replayed = await manage(id, 101, firstKey);
    assert.equal(replayed.status, 200);
    assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
    const replayedText = await replayed.text();
    assert.equal(replayedText, firstText, 'the first answer, byte for byte (the document as it was then)');
    assert.equal(
      (JSON.parse(replayedText) as { status: number }).status,
      3,
      'suspended, as the first answer said',
    );

    const createReplayed = await create(createKey);
    assert.equal(createReplayed.status, 201);
    assert.equal(createReplayed.headers.get('idempotent-replayed'), 'true');
    assert.equal(await createReplayed.text(), createdText, 'the same _id and body as the first create');
  });
});
