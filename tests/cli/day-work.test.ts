/**
 * A day's work with the `docflow` command (issue 33), against a fresh embedded instance: forms listed,
 * tasks answered (approve, decline, sign), workflow moves, attachments downloaded, ranked search,
 * tables for people and JSON for scripts, people named by e-mail, a clear "not found" with its own
 * exit code, and the bin that pnpm links running from any directory.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT } from '../support/process';
import { startEmbedded, type Target } from '../support/targets';
import { answer, docflow } from './run-docflow';

describe('docflow for a day of work', { timeout: 300_000 }, () => {
  let target: Target;
  let server: Record<string, string>;
  const home = mkdtempSync(join(tmpdir(), 'docflow-cli-day-'));
  const inHome = (args: string[], env: Record<string, string> = {}) =>
    docflow(args, { cwd: home, env: { ...server, ...env } });
  const tag = Date.now().toString(36);
  const bob = `bob-${tag}@example.com`;
  const carol = `carol-${tag}@example.com`;
  const ids: Record<string, string> = {};

  before(async () => {
    target = await startEmbedded();
    server = { DOCFLOW_URL: target.baseUrl, DOCFLOW_KEY: target.adminKey };
    for (const [who, email] of [
      ['bob', bob],
      ['carol', carol],
    ] as const) {
      const args = [
        'accounts',
        'create',
        '--kind',
        'person',
        '--email',
        email,
        '--first',
        who,
        '--last',
        'Day',
      ];
      ids[who] = answer(await inHome(args))._id_sys;
    }
    const form = {
      name: 'day-memo',
      title: 'Day memo',
      formsystype: 1,
      tags: { subject: 'string', total: 'string' },
      workflow: {
        approval: { stages: [{ participants: [bob] }], next: 'sign' },
        sign: { stages: [{ participants: [carol] }] },
      },
    };
    writeFileSync(join(home, 'day-memo.json'), JSON.stringify(form));
    answer(await inHome(['forms', 'put', 'day-memo', 'day-memo.json']));
  });
  after(async () => {
    await target?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('forms list: what anyone may create (JSON, or a table), whole definitions for an admin', async () => {
    const listed = answer(await inHome(['forms', 'list']));
    const memo = listed.find((f: { name: string }) => f.name === 'day-memo');
    assert.deepEqual(memo, {
      name: 'day-memo',
      title: 'Day memo',
      formsystype: 1,
      tags: { subject: 'string', total: 'string' },
    });
    const table = await inHome(['forms', 'list', '--output', 'table']);
    assert.equal(table.status, 0, table.stderr);
    assert.match(table.stdout, /^name +title +type +fields$/m);
    assert.match(table.stdout, /^day-memo +Day memo +1 +subject, total$/m);
    const definitions = answer(await inHome(['forms', 'list', '--definitions']));
    const defined = definitions.find((f: { name: string }) => f.name === 'day-memo');
    assert.deepEqual(defined.workflow.approval.stages[0].participants, [ids.bob]);
  });

  it('forms put naming an unknown participant: refused (exit 1), the participant named', async () => {
    const form = {
      name: 'day-orphan',
      title: 'Orphan',
      formsystype: 1,
      tags: {},
      workflow: { approval: { stages: [{ participants: ['nobody-day@example.com'] }] } },
    };
    writeFileSync(join(home, 'orphan.json'), JSON.stringify(form));
    const run = await inHome(['forms', 'put', 'day-orphan', 'orphan.json']);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /^docflow: 422 Unknown participant: .*nobody-day@example.com/m);
    assert.match(run.stderr, /body\.workflow\.approval\.stages\.0\.participants\.0/);
  });

  it('approve, then sign: the memo completes; decline ends another; no open task is exit 1', async () => {
    const create = async (subject: string) =>
      answer(
        await inHome(['documents', 'create', 'day-memo', '--values', JSON.stringify({ subject }), '--start']),
      )._id;
    const memo = await create('Budget 2027');
    const approved = answer(await inHome(['approve', memo, '--comment', 'ok'], { DOCFLOW_RUN_AS: bob }));
    assert.equal(approved.state, 2, 'in the sign phase');
    const again = await inHome(['approve', memo], { DOCFLOW_RUN_AS: bob });
    assert.equal(again.status, 1);
    assert.match(again.stderr, new RegExp(`^docflow: you have no open task on document ${memo}$`, 'm'));
    const signed = answer(await inHome(['sign', memo, '--values', '{"total":"209.55"}', '--run-as', carol]));
    assert.equal(signed.status, 4, 'completed');
    assert.equal(signed.valuesByTags.total, '209.55');
    const history = answer(await inHome(['documents', 'history', memo]));
    assert.ok(history.some((e: { data: unknown }) => JSON.stringify(e.data).includes('"ok"')));

    const other = await create('Declined plan');
    const declined = answer(await inHome(['decline', other, '--comment', 'no'], { DOCFLOW_RUN_AS: bob }));
    assert.equal(declined.status, 5, 'declined');
  });

  it('manage: moves by name or number; a move that is none is a usage error', async () => {
    const id = answer(await inHome(['documents', 'create', 'day-memo']))._id;
    assert.equal(answer(await inHome(['manage', id, 'start-approval'])).state, 1);
    assert.equal(answer(await inHome(['manage', id, 'suspend', '--comment', 'wait'])).status, 3);
    assert.equal(answer(await inHome(['manage', id, '102'])).status, 2);
    const table = await inHome(['manage', id, 'cancel', '--output', 'table']);
    assert.equal(table.status, 0, table.stderr);
    assert.match(table.stdout, /^status +6 cancelled$/m);
    const bad = await inHome(['manage', id, 'fly']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /start-approval \(100\)/);
    const refused = await inHome(['manage', id, 'resume']);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /^docflow: 422 /m);
  });

  it('download: an attachment by name or id to a file; unknown is not found; an existing file is kept', async () => {
    const content = `scan of ${tag}\n`.repeat(1000);
    writeFileSync(join(home, 'scan.txt'), content);
    const id = answer(await inHome(['documents', 'create', 'day-memo', '--file', 'scan.txt']))._id;
    rmSync(join(home, 'scan.txt'));
    const byName = answer(await inHome(['download', id, 'scan.txt']));
    assert.equal(byName.out, join(home, 'scan.txt'));
    assert.equal(byName.bytes, Buffer.byteLength(content));
    assert.equal(readFileSync(join(home, 'scan.txt'), 'utf8'), content);
    const byId = answer(await inHome(['download', id, byName.file, '--out', 'copy.txt']));
    assert.equal(readFileSync(join(home, 'copy.txt'), 'utf8'), content);
    assert.equal(byId.fileName, 'scan.txt');
    const exists = await inHome(['download', id, 'scan.txt']);
    assert.equal(exists.status, 2);
    assert.match(exists.stderr, /exists already \(--force replaces it\)/);
    assert.equal((await inHome(['download', id, 'scan.txt', '--force'])).status, 0);
    const missing = await inHome(['download', id, 'other.pdf']);
    assert.equal(missing.status, 6);
    assert.match(missing.stderr, /has no attachment other.pdf \(it has: scan.txt\)/);
    assert.equal(existsSync(join(home, 'other.pdf')), false);
  });

  it('search: ranked full-text search, as JSON or a table; views list takes authors by e-mail', async () => {
    const word = `zebra${tag}`;
    const found = answer(
      await inHome(
        ['documents', 'create', 'day-memo', '--values', JSON.stringify({ subject: `About ${word}` })],
        {
          DOCFLOW_RUN_AS: bob,
        },
      ),
    );
    let result = answer(await inHome(['search', word]));
    for (let tries = 0; result.total < 1 && tries < 50; tries++) {
      await new Promise((r) => setTimeout(r, 100));
      result = answer(await inHome(['search', word]));
    }
    assert.deepEqual(
      result.items.map((d: { _id: string }) => d._id),
      [found._id],
    );
    const table = await inHome(['search', word, '--output', 'table']);
    assert.match(table.stdout, /^id +form +subject +state +status +author +created$/m);
    assert.match(
      table.stdout,
      new RegExp(`^${found._id} +day-memo +About ${word} +0 registration +1 draft `, 'm'),
    );
    assert.match(table.stdout, /^1–1 of 1$/m);
    const byAuthor = answer(
      await inHome(['views', 'list', 'all', '--author', bob, '--all', '--page-size', '100']),
    );
    assert.ok(byAuthor.items.length >= 1);
    assert.ok(byAuthor.items.every((d: { author: string }) => d.author === ids.bob));
  });

  it('accounts by e-mail: get, deactivate, get again (inactive), activate; a table on request', async () => {
    assert.equal(answer(await inHome(['accounts', 'get', carol]))._id_sys, ids.carol);
    assert.equal(answer(await inHome(['accounts', 'deactivate', carol])).active, false);
    assert.equal(answer(await inHome(['accounts', 'get', carol.toUpperCase()]))._id_sys, ids.carol);
    assert.equal(answer(await inHome(['accounts', 'activate', carol])).active, true);
    const unknown = await inHome(['accounts', 'get', `nobody-${tag}@example.com`]);
    assert.equal(unknown.status, 6);
    assert.match(unknown.stderr, new RegExp(`^docflow: no account nobody-${tag}@example.com$`, 'm'));
    const table = await inHome(['accounts', 'list', '--all', '--page-size', '100', '--output', 'table']);
    assert.match(table.stdout, /^id +kind +e-mail +name +roles +active$/m);
    assert.match(table.stdout, new RegExp(`^${ids.bob} +person +${bob} +bob Day +yes$`, 'm'));
  });

  it('documents get of an unknown id: not found, exit 6, for a well-formed id and for any other word', async () => {
    const nope = await inHome(['documents', 'get', 'nope']);
    assert.equal(nope.status, 6);
    assert.match(nope.stderr, /^docflow: not found: no such id \(/m);
    const absent = await inHome(['documents', 'get', '0123456789abcdef01234567']);
    assert.equal(absent.status, 6);
    assert.match(absent.stderr, /^docflow: 404 Not found/m);
  });

  it('the bin pnpm links runs from any directory', async () => {
    const linked = join(REPO_ROOT, 'node_modules', '.bin', 'docflow');
    const { spawnSync } = await import('node:child_process');
    const run = spawnSync(linked, ['forms', 'list', '--output', 'json'], {
      cwd: home,
      env: { ...process.env, ...server },
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    assert.ok(JSON.parse(run.stdout).some((f: { name: string }) => f.name === 'memo'));
  });
});
