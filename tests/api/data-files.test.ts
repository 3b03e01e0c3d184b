/**
 * What docflow stores under DOCFLOW_DATA_DIR (event stores with key and password hashes, read models,
 * blobs) is its owner's only: no file or directory has a group or other permission bit, and a data
 * directory an older version left open is tightened at start.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createDoc } from '../support/documents';
import { apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';

/** Every path below `dir` (itself included) with its permission bits, relative to `dir`. */
function modesBelow(dir: string): Map<string, number> {
  const paths = readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((p) => join(dir, p));
  return new Map([dir, ...paths].map((p) => [relative(dir, p) || '.', statSync(p).mode & 0o777]));
}

for (const factory of targets()) {
  describe(`data files are the owner's only [${factory.name}]`, {
    skip: factory.skip,
    timeout: 180_000,
  }, () => {
    let target: Target;
    let dataDir = '';

    before(async () => {
      // As an older version (or the usual umask) left it: readable by everyone.
      dataDir = mkdtempSync(join(tmpdir(), 'docflow-data-files-'));
      chmodSync(dataDir, 0o755);
      const withDir = targets({ dataDir }).find((f) => f.name === factory.name)!;
      target = await withDir.start();
    });
    after(async () => {
      await target?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('after an account with a password and a document with a file, nothing is group or world accessible', async () => {
      const api = apiClient(target.baseUrl);
      const person = await api('POST', '/api/admin/v1/accounts', {
        key: target.adminKey,
        body: { kind: 'person', email: 'private@example.com', name_first: 'P', name_last: 'Rivate' },
      });
      assert.equal(person.status, 201, person.text);
      const pwd = await api('POST', '/api/v2/person', {
        key: target.adminKey,
        body: { _id_sys: person.body._id_sys, pwd: 'a-password-kept-as-a-hash' },
      });
      assert.equal(pwd.status, 200, pwd.text);
      const doc = await createDoc(target.baseUrl, target.adminKey, 'memo', {
        docForm: { valuesByTags: { subject: 'private' } },
        files: [{ name: 'note.txt', content: 'a file kept in the blob store' }],
      });
      assert.equal(doc.status, 201, doc.text);

      const modes = modesBelow(dataDir);
      // The walk saw what holds the secrets (and, embedded, the blob), so it is not vacuous.
      // The gateway keeps its read model under its instance's name in distributed mode.
      const gatewayDb = target.name === 'embedded' ? 'gateway/local.db' : 'gateway-g1/local.db';
      for (const path of ['identity/events.db', 'identity/events.db-wal', 'identity/keys.db', gatewayDb])
        assert.ok(modes.has(path), `${path} exists`);
      if (target.name === 'embedded')
        assert.ok(
          [...modes.keys()].some((p) => p.startsWith('files/blobs/sha256/') && modes.get(p) === 0o600),
          'a blob file exists',
        );
      const open = [...modes].filter(([, mode]) => (mode & 0o077) !== 0);
      assert.deepEqual(
        open.map(([path, mode]) => `${path} ${mode.toString(8)}`),
        [],
        'no file or directory has a group or other permission bit',
      );
      assert.equal(modes.get('.'), 0o700, 'the data directory itself');
      assert.match(target.output(), /the data directory was open to other users: now 0700/);
    });
  });
}
