/**
 * Auditor-grade history (issue 15), in every mode: hash-chained history with changes, paging, ids and
 * NDJSON; as-of reads; verification that pinpoints an event edited or removed in the store file and an
 * attachment blob deleted or changed; the export bundle verified offline; the auditor role.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { createDoc, createPerson, eventually } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { REPO_ROOT } from '../support/process';
import { startDistributed, startEmbedded, type Target, targets } from '../support/targets';

const GENESIS = '0'.repeat(64);

const auditForm = {
  name: 'auditform',
  title: 'Audit form',
  formsystype: 3,
  tags: { subject: 'string', amount: 'string' },
  workflow: { approval: { stages: [{ participants: ['bob@example.com'] }] } },
};

/**
 * Runs a repository command with Node alone (plus tsx to load TypeScript). Not spawnSync: a test
 * process blocked for longer than the server's keep-alive timeout would then send its next request on
 * a connection the server had closed meanwhile.
 */
function runNode(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Changes the document service's store file behind its back. */
function tamperStore(target: Target, sql: string, ...params: unknown[]) {
  const db = new Database(target.eventStoreFile('document'));
  try {
    const changed = db.prepare(sql).run(...params).changes;
    assert.ok(changed > 0, `the tampering changed no row: ${sql}`);
  } finally {
    db.close();
  }
}

for (const factory of targets()) {
  describe(`audit API [${factory.name}]`, { skip: factory.skip, timeout: 300_000 }, () => {
    let target: Target;
    let api: Api;
    let admin: string;
    let auditorKey: string;
    let outsider: string;
    let counter = 0;

    /**
     * A document with an attachment: created, approval started, suspended, resumed (the workflow's
     * facts take one or two revisions, as the synchronous answer and the bus record them).
     */
    async function auditedDoc() {
      counter++;
      const created = await createDoc(target.baseUrl, admin, 'auditform', {
        docForm: { valuesByTags: { subject: `subject ${counter}` } },
        docResponse: { taskstatus: 100 },
        files: [{ name: 'evidence.txt', content: `evidence ${counter} ${Date.now()} ${Math.random()}` }],
      });
      assert.equal(created.status, 201, created.text);
      const id: string = created.body._id;
      for (const taskstatus of [101, 102]) {
        const res = await api('POST', `/api/v2/docForm/${id}/docResponse`, {
          key: admin,
          body: { docResponse: { taskstatus } },
        });
        assert.equal(res.status, 200, res.text);
      }
      return id;
    }
    const verify = (id: string, key = admin) => api('GET', `/api/v2/docForm/${id}/verify`, { key });
    const history = (id: string) => api('GET', `/api/v2/docForm/${id}/history`, { key: admin });

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      admin = target.adminKey;
      await createPerson(api, admin, 'bob@example.com');
      outsider = await createPerson(api, admin, 'olga@example.com');
      const put = await api('PUT', '/api/admin/v1/forms/auditform', { key: admin, body: auditForm });
      assert.equal(put.status, 201, put.text);
      const auditor = await api('POST', '/api/admin/v1/accounts', {
        key: admin,
        body: {
          kind: 'service',
          email: 'auditor@example.com',
          name_first: 'Audit',
          name_last: 'Or',
          roles: ['svcAuditR'],
        },
      });
      assert.equal(auditor.status, 201, auditor.text);
      assert.deepEqual(auditor.body.roles, ['svcAuditR']);
      auditorKey = auditor.body.apiKey;
    });
    after(() => target?.stop());

    it('history: chained hashes, ids, changes, paging and NDJSON', async () => {
      const id = await auditedDoc();
      const res = await history(id);
      assert.equal(res.status, 200, res.text);
      const entries = res.body as any[];
      assert.ok(entries.length >= 4);
      assert.equal(res.headers.get('svc-total-count'), String(entries.length));
      assert.deepEqual(
        entries.map((e) => e.rev),
        entries.map((_, i) => i + 1),
      );
      assert.equal(entries[0].prevHash, GENESIS);
      for (let i = 1; i < entries.length; i++) assert.equal(entries[i].prevHash, entries[i - 1].hash);
      for (const e of entries) {
        assert.match(e.hash, /^[0-9a-f]{64}$/);
        assert.equal(typeof e.correlationId, 'string');
        assert.equal(typeof e.causationId, 'string');
      }
      assert.ok(
        entries[0].changes.some(
          (c: any) =>
            c.path === '/valuesByTags/subject' && c.after === `subject ${counter}` && !('before' in c),
        ),
      );
      const suspended = entries.at(-2);
      assert.deepEqual(suspended.data.events[0].type, 'WorkflowSuspended');
      assert.deepEqual(suspended.changes, [{ path: '/status', before: 2, after: 3 }]);

      const page = await api('GET', `/api/v2/docForm/${id}/history?first=1&pageSize=2`, { key: admin });
      assert.equal(page.status, 200, page.text);
      assert.deepEqual(page.body, entries.slice(1, 3));
      assert.equal(page.headers.get('svc-total-count'), String(entries.length));
      const badPage = await api('GET', `/api/v2/docForm/${id}/history?pageSize=0`, { key: admin });
      assert.equal(badPage.status, 400);

      const ndjson = await fetch(`${target.baseUrl}/api/v2/docForm/${id}/history`, {
        headers: { authorization: `Bearer ${admin}`, accept: 'application/x-ndjson' },
      });
      assert.equal(ndjson.status, 200);
      assert.match(ndjson.headers.get('content-type') ?? '', /application\/x-ndjson/);
      const lines = (await ndjson.text()).trimEnd().split('\n');
      assert.deepEqual(
        lines.map((l) => JSON.parse(l)),
        entries,
      );
    });

    it('asOf: the state at an instant; 400 for a bad time, 404 before creation', async () => {
      const id = await auditedDoc();
      const entries = (await history(id)).body as any[];
      const suspendedAt = entries.at(-2);
      const asOf = (instant: string) =>
        api('GET', `/api/v2/docForm/${id}?asOf=${encodeURIComponent(instant)}`, { key: admin });
      // asOf goes by the decided time (`time`); under load a create is decided well before it is stored.
      const suspended = await asOf(suspendedAt.time);
      assert.equal(suspended.status, 200, suspended.text);
      assert.equal(suspended.body._meta._rev, suspendedAt.rev);
      assert.equal(suspended.body.status, 3);
      assert.equal((await asOf(new Date().toISOString())).body._meta._rev, entries.length);
      const before = new Date(Date.parse(entries[0].time) - 1).toISOString();
      assert.equal((await asOf(before)).status, 404);
      assert.equal((await asOf('yesterday')).status, 400);
      const both = await api('GET', `/api/v2/docForm/${id}?rev=1&asOf=${encodeURIComponent(before)}`, {
        key: admin,
      });
      assert.equal(both.status, 400);
    });

    it('an untouched document verifies', async () => {
      const id = await auditedDoc();
      const entries = (await history(id)).body as any[];
      const res = await verify(id);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.valid, true);
      assert.equal(res.body.revisions, entries.length);
      assert.equal(res.body.head, entries.at(-1).hash);
      assert.equal(res.body.firstBadRevision, null);
      assert.equal(res.body.reason, null);
      assert.equal(res.body.attachments.length, 1);
      assert.equal(res.body.attachments[0].valid, true);
    });

    it("an event's data edited in the store file is named", async () => {
      const id = await auditedDoc();
      const untouched = await auditedDoc();
      const suspendedRev = (await history(id)).body.at(-2).rev;
      tamperStore(
        target,
        `UPDATE events SET data = json_set(data, '$.sourceIds[0]', '00000000-0000-4000-8000-000000000000')
         WHERE stream_id = ? AND revision = ?`,
        `docForm-${id}`,
        suspendedRev,
      );
      const res = await verify(id);
      assert.equal(res.body.valid, false);
      assert.equal(res.body.firstBadRevision, suspendedRev);
      assert.match(res.body.reason, /does not match its hash/);
      assert.equal((await verify(untouched)).body.valid, true);
    });

    it('an event removed from the store file is named', async () => {
      const id = await auditedDoc();
      tamperStore(target, 'DELETE FROM events WHERE stream_id = ? AND revision = 2', `docForm-${id}`);
      const res = await verify(id);
      assert.equal(res.body.valid, false);
      assert.equal(res.body.firstBadRevision, 2);
      assert.match(res.body.reason, /revision 2 is missing/);
    });

    for (const how of ['remove', 'change'] as const)
      it(`an attachment blob ${how === 'remove' ? 'deleted' : 'changed'} is named with the revision recording it`, async () => {
        const id = await auditedDoc();
        const created = (await history(id)).body[0];
        const file = created.data.files[0];
        await target.tamperBlob(file.sha256, how);
        const res = await verify(id);
        assert.equal(res.body.valid, false);
        assert.equal(res.body.firstBadRevision, 1);
        assert.match(res.body.reason, new RegExp(`attachment ${file.id}`));
        assert.equal(res.body.attachments[0].valid, false);
      });

    it('the auditor reads, verifies and exports any document and changes nothing; others see 404', async () => {
      const id = await auditedDoc();
      for (const path of ['', '/history', '/verify', '/export']) {
        const res = await api('GET', `/api/v2/docForm/${id}${path}`, { key: auditorKey });
        assert.equal(res.status, 200, `${path}: ${res.text}`);
      }
      const manage = await api('POST', `/api/v2/docForm/${id}/docResponse`, {
        key: auditorKey,
        body: { docResponse: { taskstatus: 101 } },
      });
      assert.equal(manage.status, 403, manage.text);
      const create = await createDoc(target.baseUrl, auditorKey, 'auditform', {
        docForm: { author: outsider },
      });
      assert.equal(create.status, 403, create.text);
      assert.equal((await history(id)).body.at(-1).data.events[0].type, 'WorkflowResumed');
      const olga = await api('GET', `/api/v2/docForm/${id}/verify`, { key: admin, runAs: outsider });
      assert.equal(olga.status, 404);
    });

    it('an export bundle verifies offline, and an edited bundle names its first bad entry', async () => {
      const id = await auditedDoc();
      const res = await fetch(`${target.baseUrl}/api/v2/docForm/${id}/export`, {
        headers: { authorization: `Bearer ${auditorKey}` },
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/x-tar');
      const dir = mkdtempSync(join(tmpdir(), 'docflow-bundle-'));
      try {
        const bundle = Buffer.from(await res.arrayBuffer());
        const good = join(dir, 'good.tar');
        writeFileSync(good, bundle);
        const ok = await runNode(['packages/cli/bin/docflow.mjs', 'verify', good]);
        assert.equal(ok.status, 0, ok.stdout + ok.stderr);
        const verdict = JSON.parse(ok.stdout);
        assert.equal(verdict.valid, true);
        assert.equal(verdict.documentId, id);
        assert.equal(verdict.revisions, (await history(id)).body.length);

        // The same number of bytes, so the archive stays well-formed: only the content lies.
        const subject = `"subject ${counter}"`;
        const forged = join(dir, 'forged-history.tar');
        writeFileSync(forged, replaceInHistory(bundle, subject, subject.replace('subject', 'SUBJECT')));
        const bad = await runNode(['packages/cli/bin/docflow.mjs', 'verify', forged]);
        assert.equal(bad.status, 1, bad.stdout + bad.stderr);
        assert.equal(JSON.parse(bad.stdout).firstBadEntry, 'history/1');

        const fileId = (await history(id)).body[0].data.files[0].id;
        const evidence = `evidence ${counter} `;
        const forgedFile = join(dir, 'forged-file.tar');
        writeFileSync(forgedFile, replaceLast(bundle, evidence, evidence.replace('evidence', 'EVIDENCE')));
        const badFile = await runNode(['packages/cli/bin/docflow.mjs', 'verify', forgedFile]);
        assert.equal(badFile.status, 1, badFile.stdout + badFile.stderr);
        const fileVerdict = JSON.parse(badFile.stdout);
        assert.equal(fileVerdict.firstBadEntry, `attachments/${fileId}`);
        assert.equal(fileVerdict.firstBadRevision, 1);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

/** Replaces the first `from` inside the manifest's history. */
function replaceInHistory(bytes: Buffer, from: string, to: string): Buffer {
  const at = bytes.indexOf(from, bytes.indexOf('"history"'));
  assert.ok(at >= 0, `${from} not in the bundle`);
  return Buffer.concat([bytes.subarray(0, at), Buffer.from(to), bytes.subarray(at + from.length)]);
}

function replaceLast(bytes: Buffer, from: string, to: string): Buffer {
  const at = bytes.lastIndexOf(from);
  assert.ok(at >= 0, `${from} not in the bundle`);
  return Buffer.concat([bytes.subarray(0, at), Buffer.from(to), bytes.subarray(at + from.length)]);
}

/** The `audit checkpoint` lines a target logged, oldest first. */
function checkpointsLogged(target: Target): { root: string; streams: number; at: string }[] {
  return target
    .output()
    .split('\n')
    .filter((line) => line.includes('"audit checkpoint"'))
    .map((line) => JSON.parse(line.slice(line.indexOf('{'))));
}

for (const factory of targets()) {
  describe(`audit checkpoints and the store-wide verify [${factory.name}]`, {
    skip: factory.skip,
    timeout: 300_000,
  }, () => {
    it('a checkpoint anchors every stream: a stream removed or truncated afterwards is named', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'docflow-anchors-'));
      try {
        const target = await (factory.name === 'embedded'
          ? startEmbedded({ dataDir, env: { DOCFLOW_AUDIT_CHECKPOINT_MS: '200' } })
          : startDistributed({ dataDir, env: { DOCFLOW_AUDIT_CHECKPOINT_MS: '200' } }));
        const ids: string[] = [];
        let lastRecorded = 0;
        try {
          const api = apiClient(target.baseUrl);
          await createPerson(api, target.adminKey, 'bob@example.com');
          const put = await api('PUT', '/api/admin/v1/forms/auditform', {
            key: target.adminKey,
            body: auditForm,
          });
          assert.equal(put.status, 201, put.text);
          for (let i = 0; i < 3; i++) {
            const res = await createDoc(target.baseUrl, target.adminKey, 'auditform', {
              docForm: { valuesByTags: { subject: `anchored ${i}` } },
              docResponse: { taskstatus: 100 },
            });
            assert.equal(res.status, 201, res.text);
            ids.push(res.body._id);
          }
          // Wait for the workflow facts arriving from the bus too, then for a checkpoint after the last.
          await eventually(
            () => api('GET', `/api/v2/docForm/${ids[2]}/history`, { key: target.adminKey }),
            (r) => r.body.some((e: any) => e.data.events?.some((f: any) => f.type === 'TaskOpened')),
          );
          for (const id of ids) {
            const h = await api('GET', `/api/v2/docForm/${id}/history`, { key: target.adminKey });
            lastRecorded = Math.max(lastRecorded, ...h.body.map((e: any) => Date.parse(e.recordedAt)));
          }
          const logged = await eventually(
            async () => checkpointsLogged(target),
            (lines) => lines.some((l) => Date.parse(l.at) > lastRecorded + 300),
            30_000,
          );
          assert.ok(logged.at(-1)!.streams >= 3, JSON.stringify(logged.at(-1)));
        } finally {
          await target.stop();
        }

        const untouched = await runNode(['services/document/src/audit/verify-store-cli.ts'], {
          DOCFLOW_DATA_DIR: dataDir,
        });
        assert.equal(untouched.status, 0, untouched.stdout + untouched.stderr);
        const good = JSON.parse(untouched.stdout);
        assert.equal(good.valid, true);
        assert.equal(good.checkpoint.streams, 3);
        assert.equal(good.checkpoint.rootMatchesHeads, true);

        const db = new Database(target.eventStoreFile('document'));
        const truncatedAt = (
          db
            .prepare('SELECT MAX(revision) AS r FROM events WHERE stream_id = ?')
            .get(`docForm-${ids[1]}`) as { r: number }
        ).r;
        db.prepare('DELETE FROM events WHERE stream_id = ?').run(`docForm-${ids[0]}`);
        db.prepare('DELETE FROM events WHERE stream_id = ? AND revision = ?').run(
          `docForm-${ids[1]}`,
          truncatedAt,
        );
        db.close();

        const damaged = await runNode(['services/document/src/audit/verify-store-cli.ts'], {
          DOCFLOW_DATA_DIR: dataDir,
        });
        assert.equal(damaged.status, 1, damaged.stdout + damaged.stderr);
        const bad = JSON.parse(damaged.stdout);
        assert.equal(bad.valid, false);
        const byStream = new Map(bad.problems.map((p: any) => [p.streamId, p]));
        assert.equal(bad.problems.length, 2, damaged.stdout);
        assert.equal((byStream.get(`docForm-${ids[0]}`) as any).firstBadRevision, 1);
        assert.match((byStream.get(`docForm-${ids[0]}`) as any).reason, /the stream is gone/);
        assert.equal((byStream.get(`docForm-${ids[1]}`) as any).firstBadRevision, truncatedAt);
        assert.match((byStream.get(`docForm-${ids[1]}`) as any).reason, /is missing/);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
}
