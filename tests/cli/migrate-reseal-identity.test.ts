/**
 * `docflow migrate reseal-identity` (issue 31): a data directory holding identity events written
 * before sealing (their personal fields in clear, the shape of the events before 3a3d319, written
 * here through the SQLite event store adapter into a directory the current release made) is
 * replayed into a new directory, stopped once at --limit and resumed; no clear value of the old
 * events is in any byte of any file of the new directory, the old directory is not changed, and the
 * current release started on the new directory reads every person, account and document as before;
 * an erasure still works.
 */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { createSqliteEventStore, type NewEvent } from '@docflow/eventstore';
import Database from 'better-sqlite3';
import { createDoc } from '../support/documents';
import { apiClient } from '../support/http';
import { newAdminKey, startEmbedded } from '../support/targets';
import { answer, docflow } from './run-docflow';

const ADA = 'usr-ada00000-0000-4000-8000-000000000001';
const CHARLES = 'usr-cba00000-0000-4000-8000-000000000002';
const ADMIN_ACTOR = 'usr-00000000-0000-4000-8000-000000000000';
/** Every personal value the old events hold in clear. */
const ADA_DATA = {
  email: 'ada.lovelace@old-release.example',
  name_first: 'Augusta',
  name_last: 'Lovelace',
  name_mid: 'King-Noel',
  phone_office: '+44 20 7946 0001',
  phone_mobile: '+44 7700 900123',
  unit: 'Analytical Engines',
  pwdHash: 'scrypt$16384$8$1$b2xkLXJlbGVhc2Utc2FsdA$b2xkLXJlbGVhc2UtaGFzaC1vZi1hLXBhc3N3b3Jk',
};
const CHARLES_DATA = {
  email: 'charles.babbage@old-release.example',
  name_first: 'Charles',
  name_last: 'Babbage',
};
const CLEAR_VALUES = [...Object.values(ADA_DATA), ...Object.values(CHARLES_DATA)];

const event = (type: string, data: Record<string, unknown>, timestamp: string): NewEvent => ({
  id: randomUUID(),
  type,
  version: 1,
  data,
  metadata: { correlationId: randomUUID(), actor: ADMIN_ACTOR, timestamp },
});
const legacyClaim = (email: string) => `email-${createHash('sha256').update(email).digest('hex')}`;

/**
 * Identity events as the release before sealing wrote them (AccountCreated, PersonUpdated and
 * PasswordChanged with their personal fields in clear, a claim stream named by the address's SHA-256),
 * and Charles erased since: his clear AccountCreated, then the erasure's events and key tombstone.
 */
async function writePreSealingEvents(dataDir: string): Promise<void> {
  const store = createSqliteEventStore({ file: join(dataDir, 'identity', 'events.db') });
  const { email, name_first, name_last, pwdHash, ...changes } = ADA_DATA;
  await store.append(
    `account-${ADA}`,
    [
      event(
        'AccountCreated',
        { id: ADA, kind: 'person', email, name_first, name_last, roles: [], active: true },
        '2026-01-05T09:00:00.000Z',
      ),
      event(
        'PersonUpdated',
        { changes: { ...changes, deputy: { id: CHARLES, enabled: false } } },
        '2026-01-06T09:00:00.000Z',
      ),
      event('PasswordChanged', { pwdHash }, '2026-01-07T09:00:00.000Z'),
    ],
    0,
  );
  await store.append(
    legacyClaim(email),
    [event('EmailClaimed', { accountId: ADA }, '2026-01-05T09:00:00.000Z')],
    0,
  );
  await store.append(
    `account-${CHARLES}`,
    [
      event(
        'AccountCreated',
        { id: CHARLES, kind: 'person', ...CHARLES_DATA, roles: [], active: true },
        '2026-01-08T09:00:00.000Z',
      ),
      event('AccountActivationChanged', { active: false }, '2026-03-01T09:00:00.000Z'),
      event('AccountErased', {}, '2026-03-01T09:00:00.000Z'),
    ],
    0,
  );
  await store.append(
    legacyClaim(CHARLES_DATA.email),
    [event('EmailClaimed', { accountId: CHARLES }, '2026-01-08T09:00:00.000Z')],
    0,
  );
  await store.close();
  const keys = new Database(join(dataDir, 'identity', 'keys.db'));
  keys
    .prepare('INSERT INTO person_keys (account_id, key, erased_at) VALUES (?, NULL, ?)')
    .run(CHARLES, '2026-03-01T09:00:00.000Z');
  keys.close();
}

/** Every file under `dir` (relative path → bytes). */
function filesOf(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files.set(relative(dir, path), readFileSync(path));
    }
  return files;
}

/** The clear values found in the files of `dir`, as `file: value`. */
const clearValuesIn = (dir: string) =>
  [...filesOf(dir)].flatMap(([file, bytes]) =>
    CLEAR_VALUES.filter((value) => bytes.includes(Buffer.from(value))).map((value) => `${file}: ${value}`),
  );

/** SHA-256 of every store and blob of `dir` (not the lock, WAL or shared-memory files). */
const dataHashes = (dir: string) =>
  Object.fromEntries(
    [...filesOf(dir)]
      .filter(([file]) => file.endsWith('.db') || file.includes('/blobs/sha256/'))
      .map(([file, bytes]) => [file, createHash('sha256').update(bytes).digest('hex')]),
  );

describe('docflow migrate reseal-identity', { timeout: 300_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'docflow-reseal-'));
  const [oldDir, newDir] = [join(work, 'old'), join(work, 'new')];
  const adminKey = newAdminKey();
  after(() => rmSync(work, { recursive: true, force: true }));

  /** What the current release answers on the old directory, read before the migration. */
  const before: Record<string, unknown> = {};
  const reads = (baseUrl: string, docId: string) => {
    const api = apiClient(baseUrl);
    const get = async (path: string, runAs?: string) => {
      const res = await api('GET', path, { key: adminKey, ...(runAs ? { runAs } : {}) });
      assert.equal(res.status, 200, `${path}: ${res.text}`);
      return res.body;
    };
    return {
      'person Ada': () => get(`/api/v2/person/${ADA}`),
      'account Ada': () => get(`/api/admin/v1/accounts/${ADA}`),
      'account Charles': () => get(`/api/admin/v1/accounts/${CHARLES}`),
      'account list': () => get('/api/admin/v1/accounts?pageSize=100'),
      document: () => get(`/api/v2/docForm/${docId}`),
      "Ada's documents by run-as with her old e-mail": () =>
        get('/api/v2/docForm/view/mydocs', ADA_DATA.email),
    };
  };
  let docId = '';

  it('the old directory: pre-sealing events beside current data, read by the current release', async () => {
    const first = await startEmbedded({ adminKey, dataDir: oldDir });
    try {
      const created = await createDoc(first.baseUrl, adminKey, 'contract', {
        docForm: { _tags: ['reseal'] },
        files: [{ name: 'terms.txt', content: 'terms of the old release', type: 'text/plain' }],
      });
      assert.equal(created.status, 201, created.text);
      docId = created.body._id;
    } finally {
      await first.stop();
    }
    await writePreSealingEvents(oldDir);
    assert.ok(clearValuesIn(oldDir).some((found) => found.startsWith('identity/events.db: ada.lovelace@')));

    const current = await startEmbedded({ adminKey, dataDir: oldDir });
    try {
      for (const [what, read] of Object.entries(reads(current.baseUrl, docId))) before[what] = await read();
    } finally {
      await current.stop();
    }
    const ada = before['person Ada'] as Record<string, unknown>;
    assert.equal(ada.email, ADA_DATA.email);
    assert.equal(ada.unit, ADA_DATA.unit);
    assert.equal((before['account Charles'] as { email: string }).email, '[erased]');
  });

  it('replays into a new directory, stopped at --limit and resumed, with progress; the old directory is unchanged', async () => {
    const source = dataHashes(oldDir);
    const stopped = await docflow([
      'migrate',
      'reseal-identity',
      newDir,
      '--data-dir',
      oldDir,
      '--limit',
      '3',
    ]);
    assert.equal(stopped.status, 5, stopped.stderr);
    assert.match(stopped.stderr, /^reseal: identity\/events\.db 3\/\d+ events/m);
    assert.match(stopped.stderr, /3 of \d+ identity events replayed \(--limit\): run the same command again/);
    const part = JSON.parse(stopped.stdout);
    assert.deepEqual([part.complete, part.identity.replayed], [false, 3]);

    // A directory another migration did not begin is refused.
    const other = await docflow(['migrate', 'reseal-identity', oldDir, '--data-dir', newDir]);
    assert.equal(other.status, 2, other.stderr);

    const run = await docflow(['migrate', 'reseal-identity', newDir, '--data-dir', oldDir]);
    const summary = answer(run);
    assert.equal(summary.identity.resumedWith, 3);
    assert.equal(summary.identity.complete, true);
    assert.equal(summary.identity.replayed, summary.identity.total - 3);
    // Ada's three events and Charles's creation, over both runs; the admin's hold no personal field.
    assert.equal(part.identity.resealed + summary.identity.resealed, 4);
    assert.deepEqual(summary.check.found, []);
    assert.ok(summary.check.scanned >= CLEAR_VALUES.length, JSON.stringify(summary.check));
    assert.ok(summary.stores >= 10, `stores carried over: ${summary.stores}`);
    assert.ok(summary.blobs.copied >= 1);
    assert.match(run.stderr, /^migrate: blobs \d+\/\d+ blobs/m);
    assert.deepEqual(dataHashes(oldDir), source, 'the old directory is not changed');
  });

  it('no clear personal value of the old events is in any byte of any file of the new directory', () => {
    assert.deepEqual(clearValuesIn(newDir), []);
    assert.ok(filesOf(newDir).has('identity/keys.db'));
  });

  it('the current release on the new directory reads everything as before; an erasure still works', async () => {
    const target = await startEmbedded({ adminKey, dataDir: newDir });
    try {
      for (const [what, read] of Object.entries(reads(target.baseUrl, docId)))
        assert.deepEqual(await read(), before[what], what);

      const api = apiClient(target.baseUrl);
      const erased = await api('POST', `/api/admin/v1/accounts/${ADA}/erase`, { key: adminKey });
      assert.equal(erased.status, 200, erased.text);
      const person = await api('GET', `/api/v2/person/${ADA}`, { key: adminKey });
      for (const field of ['email', 'name_first', 'name_last', 'name_mid', 'phone_mobile', 'unit'])
        assert.equal(person.body[field], '[erased]', field);
      const runAs = await api('GET', '/api/v2/docForm/view/mydocs', { key: adminKey, runAs: ADA_DATA.email });
      assert.equal(runAs.status, 403, runAs.text);
    } finally {
      await target.stop();
    }
    assert.deepEqual(clearValuesIn(newDir), [], 'nor after serving it: relays, read models, WAL files');
  });
});
