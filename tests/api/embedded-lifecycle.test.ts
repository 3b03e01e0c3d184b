/**
 * Embedded mode's own promises: the generated admin key is printed once and only once, an
 * acknowledged write survives kill -9, a second process on the same data directory is refused, and
 * stored events carry actor and run-as but no password.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createSqliteEventStore } from '@docflow/eventstore';
import { apiClient } from '../support/http';
import { startTsProcess } from '../support/process';
import { GENERATED_KEY_IN_OUTPUT, startEmbedded } from '../support/targets';

const PASSWORD = 'Sup3r-Secret-Passphrase-For-Lifecycle';

function filesBelow(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}

describe('embedded lifecycle', { timeout: 180_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'docflow-lifecycle-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  let generatedKey = '';
  let svcId = '';
  let userId = '';

  it('prints a generated admin key once at first start; it works', async () => {
    const first = await startEmbedded({ adminKey: null, dataDir });
    try {
      const keys = first.output().match(GENERATED_KEY_IN_OUTPUT) ?? [];
      assert.equal(keys.length, 1, 'exactly one key printed');
      generatedKey = keys[0]!;
      const logLines = first
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'));
      assert.ok(
        logLines.every((l) => !l.includes(generatedKey)),
        'the key is not in any JSON log line',
      );
      const api = apiClient(first.baseUrl);
      const svc = await api('POST', '/api/admin/v1/accounts', {
        key: generatedKey,
        body: {
          kind: 'service',
          email: 'svc@example.com',
          name_first: 'S',
          name_last: 'V',
          roles: ['svcAdminSysRW'],
        },
      });
      assert.equal(svc.status, 201, svc.text);
      svcId = svc.body._id_sys;
      const user = await api('POST', '/api/admin/v1/accounts', {
        key: generatedKey,
        body: {
          kind: 'person',
          email: 'user@example.com',
          name_first: 'U',
          name_last: 'Ser',
          roles: ['svcAdminSysRW'],
        },
      });
      userId = user.body._id_sys;
      const update = await api('POST', '/api/v2/person', {
        key: svc.body.apiKey,
        runAs: userId,
        body: { _id_sys: userId, unit: 'Audit', pwd: PASSWORD },
      });
      assert.equal(update.status, 200, update.text);
      // Acknowledged: now kill without any chance to flush.
      await first.proc.kill();
    } finally {
      await first.proc.kill();
    }
  });

  it('after kill -9 the data is there, no key is printed again and the old key still works', async () => {
    const second = await startEmbedded({ adminKey: null, dataDir });
    try {
      assert.equal(second.output().match(GENERATED_KEY_IN_OUTPUT), null);
      const api = apiClient(second.baseUrl);
      const person = await api('GET', `/api/v2/person/${userId}`, { key: generatedKey });
      assert.equal(person.status, 200, person.text);
      assert.equal(person.body.unit, 'Audit');
      assert.ok(!second.output().includes(PASSWORD));
    } finally {
      await second.proc.stop();
    }
  });

  it('a second process on the data directory exits 2 naming it and the holder; the first keeps answering', async () => {
    const running = await startEmbedded({ adminKey: null, dataDir });
    const readPerson = (baseUrl: string) =>
      apiClient(baseUrl)('GET', `/api/v2/person/${userId}`, { key: generatedKey });
    try {
      const second = startTsProcess(
        'services/embedded/src/main.ts',
        { PORT: '0', HOST: '127.0.0.1', DOCFLOW_DATA_DIR: dataDir, DOCFLOW_ADMIN_KEY: '' },
        'second docflow',
      );
      const listening = second
        .waitForLog((l) => l.msg === 'docflow listening')
        .then(
          () => true,
          () => false,
        );
      if (await listening) {
        await second.kill();
        assert.fail('a second process started on the same data directory');
      }
      assert.equal(await second.exited, 2);
      const escapedDir = dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      assert.match(
        second.output(),
        new RegExp(`data directory ${escapedDir}/\\w+ is in use by process ${running.proc.child.pid} `),
      );
      const person = await readPerson(running.baseUrl);
      assert.equal(person.status, 200, person.text);
    } finally {
      await running.proc.kill();
    }
    // Killed with no chance to unlock: the next process starts at once all the same.
    const next = await startEmbedded({ adminKey: null, dataDir });
    try {
      const person = await readPerson(next.baseUrl);
      assert.equal(person.status, 200, person.text);
    } finally {
      await next.proc.stop();
    }
  });

  it('SIGTERM lets a request in flight finish, then exits 0', async () => {
    const third = await startEmbedded({ adminKey: null, dataDir });
    const api = apiClient(third.baseUrl);
    // A password update runs argon2id (~50 ms): long enough to be in flight when the signal arrives.
    const inFlight = api('POST', '/api/v2/person', {
      key: generatedKey,
      body: { _id_sys: userId, pwd: `${PASSWORD}-2` },
    });
    await new Promise((r) => setTimeout(r, 30));
    third.proc.child.kill('SIGTERM');
    const res = await inFlight;
    assert.equal(res.status, 200, res.text);
    assert.equal(await third.proc.exited, 0);
    assert.match(third.output(), /SIGTERM: shutting down/);
  });

  it('stored events record the acting service account and the run-as user, and no password', async () => {
    const store = createSqliteEventStore({ file: join(dataDir, 'identity', 'events.db') });
    try {
      const events = await store.readStream(`account-${userId}`);
      const update = events.find((e) => e.type === 'PersonUpdated');
      assert.ok(update, 'PersonUpdated stored');
      assert.equal(update.metadata.actor, svcId);
      assert.equal(update.metadata.runAs, userId);
      assert.ok(update.metadata.correlationId);
      const pwd = events.find((e) => e.type === 'PasswordSet');
      // The hash is personal data: stored only sealed with the person's key (docs/decisions.md).
      assert.ok(pwd?.data.sealed, 'PasswordSet stored sealed');
      assert.equal(pwd.data.pwdHash, undefined);
      assert.ok(!JSON.stringify(pwd.data).includes('argon2'));
      for (const e of events) assert.ok(!JSON.stringify(e).includes(PASSWORD));
    } finally {
      await store.close();
    }
    for (const file of filesBelow(dataDir)) {
      assert.ok(!readFileSync(file).includes(Buffer.from(PASSWORD)), `${file} holds no password in clear`);
    }
  });
});
