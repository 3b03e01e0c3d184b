import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MIN_SCAN_BYTES, scanForValues } from './clear-values';

const CHUNK_BYTES = 1 << 20;

describe('the check for clear values in a directory', () => {
  const root = mkdtempSync(join(tmpdir(), 'docflow-scan-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const values = new Map([
    ['ada@example.com', 'email'],
    ['O\'Brien "Junior"', 'name_last'],
    ['HR', 'unit'],
  ]);

  it('finds a value in any file, also across two chunks read, and names file and field', async () => {
    mkdirSync(join(root, 'files', 'blobs'), { recursive: true });
    const across = Buffer.alloc(CHUNK_BYTES + 100, 0x20);
    across.write('ada@example.com', CHUNK_BYTES - 5);
    writeFileSync(join(root, 'files', 'blobs', 'big'), across);
    writeFileSync(join(root, 'files', 'clean'), 'nothing personal');
    const scan = await scanForValues(root, values);
    assert.deepEqual(scan.found, [{ file: 'files/blobs/big', field: 'email' }]);
    assert.equal(scan.files, 2);
  });

  it('looks for the value as JSON writes it too; one shorter than the minimum is counted, not looked for', async () => {
    mkdirSync(join(root, 'identity'), { recursive: true });
    writeFileSync(
      join(root, 'identity', 'events.db'),
      JSON.stringify({ name_last: 'O\'Brien "Junior"', unit: 'HR' }),
    );
    const scan = await scanForValues(root, values);
    assert.ok(Buffer.byteLength('HR') < MIN_SCAN_BYTES);
    assert.deepEqual(
      scan.found.filter((f) => f.file === 'identity/events.db'),
      [{ file: 'identity/events.db', field: 'name_last' }],
    );
    assert.deepEqual([scan.scanned, scan.tooShort], [2, 1]);
  });
});
