import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { Progress } from './progress';
import { pinSnapshots } from './sqlite-snapshot';

const silent: Progress = { start() {}, update() {}, stop() {} };
/** Rows of 4 KiB: 12,000 of them make a store of several backup steps. */
const ROW = Buffer.alloc(4096, 7);

describe('SQLite snapshots for an online backup', { timeout: 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-snapshot-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  function writer(name: string) {
    const db = new Database(join(dir, name));
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE rows (n INTEGER PRIMARY KEY, body BLOB NOT NULL)');
    const insert = db.prepare('INSERT INTO rows (body) VALUES (?)');
    const insertMany = db.transaction((count: number) => {
      for (let i = 0; i < count; i++) insert.run(ROW);
    });
    return { db, insertMany };
  }
  const rowsIn = (file: string) => {
    const copy = new Database(file, { readonly: true });
    try {
      return copy.prepare('SELECT count(*) FROM rows').pluck().get();
    } finally {
      copy.close();
    }
  };

  it('copies each store as it was when pinned, while a writer goes on committing, in several steps', async () => {
    const a = writer('a.db');
    const b = writer('b.db');
    a.insertMany(12_000);
    b.insertMany(10);
    const { snapshots } = pinSnapshots([join(dir, 'a.db'), join(dir, 'b.db')]);
    a.insertMany(5);
    b.insertMany(5);
    // The writer commits between the backup's steps too.
    let writing = true;
    const commits = (async () => {
      let n = 0;
      while (writing) {
        a.insertMany(1);
        n++;
        await new Promise((r) => setImmediate(r));
      }
      return n;
    })();
    let steps = 0;
    const counting: Progress = { ...silent, update: () => steps++ };
    await snapshots[0]!.copyTo(join(dir, 'out', 'a.db'), counting, 'a.db');
    await snapshots[1]!.copyTo(join(dir, 'out', 'b.db'), silent, 'b.db');
    writing = false;
    assert.ok((await commits) > 0, 'the writer committed while the copy ran');
    assert.ok(steps > 2, `copied in ${steps} steps`);
    assert.equal(rowsIn(join(dir, 'out', 'a.db')), 12_000);
    assert.equal(rowsIn(join(dir, 'out', 'b.db')), 10);
    assert.equal(statSync(join(dir, 'out', 'a.db')).mode & 0o777, 0o600, 'a copy is its owner only');
    // Let go: the writer's checkpoint goes through again.
    assert.deepEqual(a.db.pragma('wal_checkpoint(TRUNCATE)'), [{ busy: 0, log: 0, checkpointed: 0 }]);
    a.db.close();
    b.db.close();
  });

  it('all or none: a store that cannot be opened lets the others go', () => {
    const c = writer('c.db');
    assert.throws(() => pinSnapshots([join(dir, 'c.db'), join(dir, 'missing.db')]));
    assert.deepEqual(c.db.pragma('wal_checkpoint(TRUNCATE)'), [{ busy: 0, log: 0, checkpointed: 0 }]);
    c.db.close();
  });
});
