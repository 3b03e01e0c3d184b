import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { createAccountsReadModel } from './accounts-read-model';

const ALICE = 'usr-0a000000-0000-4000-8000-000000000001';
const EMAIL = 'alice.legacy@example.com';

describe('accounts read model: the e-mails an older version kept', () => {
  it('are gone from the database file once it opens; the accounts stay', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateway-accounts-'));
    try {
      const file = join(dir, 'local.db');
      const old = openLocalDb(file);
      // The table as it was before personal data was sealed.
      old.exec(`CREATE TABLE accounts (
        id TEXT PRIMARY KEY, kind TEXT NOT NULL, email TEXT NOT NULL UNIQUE, roles TEXT NOT NULL,
        active INTEGER NOT NULL, key_hash TEXT UNIQUE, rev INTEGER NOT NULL)`);
      old
        .prepare('INSERT INTO accounts VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(ALICE, 'person', EMAIL, '[]', 1, null, 3);
      old.pragma('wal_checkpoint(TRUNCATE)');
      old.close();
      assert.ok(readFileSync(file).includes(EMAIL), 'the old file holds the e-mail');

      const db = openLocalDb(file);
      const accounts = createAccountsReadModel(db);
      assert.deepEqual(accounts.byId(ALICE), {
        id: ALICE,
        kind: 'person',
        roles: [],
        active: true,
        keyHash: null,
        rev: 3,
      });
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
      for (const name of readdirSync(dir))
        assert.ok(!readFileSync(join(dir, name)).includes(EMAIL), `${name} holds no e-mail`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
