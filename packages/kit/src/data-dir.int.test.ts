import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeDataDirPrivate } from './data-dir';

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('makeDataDirPrivate', () => {
  const root = mkdtempSync(join(tmpdir(), 'docflow-data-dir-'));
  let umask = 0;
  // The usual umask, so that only the code under test can make anything owner-only.
  before(() => {
    umask = process.umask(0o022);
  });
  after(() => {
    process.umask(umask);
    rmSync(root, { recursive: true, force: true });
  });

  it('creates a missing directory, and the missing ones above it, 0700', () => {
    const dir = join(root, 'new', 'data');
    assert.equal(makeDataDirPrivate(dir), undefined);
    assert.equal(modeOf(dir), 0o700);
    assert.equal(modeOf(join(root, 'new')), 0o700);
  });

  it('tightens a directory an older version left 0755, and tells its old mode', () => {
    const dir = join(root, 'old');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    assert.equal(makeDataDirPrivate(dir), 0o755);
    assert.equal(modeOf(dir), 0o700);
    assert.equal(makeDataDirPrivate(dir), undefined, 'a private directory is left as it is');
  });
});
