/** The `docflow` command against a fresh embedded instance: every server command, its exit codes, its paths. */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../support/net';
import { startEmbedded, type Target } from '../support/targets';
import { answer, docflow } from './run-docflow';

describe('docflow, the command-line tool, against a server', { timeout: 300_000 }, () => {
  let target: Target;
  let server: Record<string, string>;
  /** A directory of the user's own: relative paths are taken from here, not from the repository. */
  const home = mkdtempSync(join(tmpdir(), 'docflow-cli-home-'));
  const inHome = (args: string[], env: Record<string, string> = {}) =>
    docflow(args, { cwd: home, env: { ...server, ...env } });

  before(async () => {
    target = await startEmbedded();
    server = { DOCFLOW_URL: target.baseUrl, DOCFLOW_KEY: target.adminKey };
  });
  after(async () => {
    await target?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('accounts: creates a service account (its key printed this once), reads it, sets roles, deactivates it', async () => {
    const email = `cli-svc-${Date.now()}@example.com`;
    const created = answer(
      await inHome([
        'accounts',
        'create',
        '--kind',
        'service',
        '--email',
        email,
        '--first',
        'Cli',
        '--last',
        'Bot',
      ]),
    );
    assert.match(created.apiKey, /^dfk_/);
    assert.equal(created.active, true);
    const id = created._id_sys;

    // The new key works: flags instead of the environment.
    const self = await docflow(['accounts', 'get', id, '--url', target.baseUrl, '--key', target.adminKey]);
    const read = answer(self);
    assert.equal(read.email, email);
    assert.equal(read.apiKey, undefined);
    assert.equal(self.stdout.includes(created.apiKey), false);

    const roles = answer(await inHome(['accounts', 'roles', id, 'svcAuditR', 'svcAdminDocsRW']));
    assert.deepEqual([...roles.roles].sort(), ['svcAdminDocsRW', 'svcAuditR']);
    const audited = await inHome(['accounts', 'get', id], { DOCFLOW_KEY: created.apiKey });
    assert.equal(audited.status, 1, 'an auditor may not read accounts');
    assert.match(audited.stderr, /^docflow: 403 /m);

    assert.equal(answer(await inHome(['accounts', 'deactivate', id])).active, false);
    const refused = await inHome(['documents', 'get', '0123456789abcdef01234567'], {
      DOCFLOW_KEY: created.apiKey,
    });
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /^docflow: 401 Unauthorized: unknown or inactive API key$/m);
    assert.equal(refused.stderr.includes(created.apiKey), false, 'the key is never echoed');
    assert.equal(answer(await inHome(['accounts', 'activate', id])).active, true);
  });

  it('accounts list: one page oldest first with the total, filters, or every page with --all', async () => {
    const tag = Date.now();
    const ids: string[] = [];
    for (const i of [1, 2]) {
      const email = `cli-list-${i}-${tag}@example.com`;
      const args = [
        'accounts',
        'create',
        '--kind',
        'person',
        '--email',
        email,
        '--first',
        'L',
        '--last',
        `${i}`,
      ];
      ids.push(answer(await inHome(args))._id_sys);
    }
    assert.equal(answer(await inHome(['accounts', 'deactivate', ids[1]!])).active, false);
    const all = answer(await inHome(['accounts', 'list', '--all', '--page-size', '1']));
    assert.equal(all.first, 0);
    assert.equal(all.items.length, all.total);
    assert.deepEqual(
      all.items.slice(-2).map((a: { _id_sys: string }) => a._id_sys),
      ids,
    );
    const one = answer(
      await inHome(['accounts', 'list', '--page-size', '1', '--first', String(all.total - 1)]),
    );
    assert.deepEqual(
      one.items.map((a: { _id_sys: string }) => a._id_sys),
      [ids[1]],
    );
    assert.equal(one.total, all.total);
    const inactive = answer(await inHome(['accounts', 'list', '--kind', 'person', '--active', 'false']));
    assert.ok(
      inactive.items.every((a: { kind: string; active: boolean }) => a.kind === 'person' && !a.active),
    );
    assert.ok(inactive.items.some((a: { _id_sys: string }) => a._id_sys === ids[1]));
    assert.ok(!inactive.items.some((a: { _id_sys: string }) => a._id_sys === ids[0]));
    const badKind = await inHome(['accounts', 'list', '--kind', 'robot']);
    assert.equal(badKind.status, 2);
  });

  it('a bad key: exit 1 and the problem detail on stderr, the key nowhere in the output', async () => {
    const key = 'not-a-key-of-this-server-0123456789';
    const run = await inHome(['views', 'list', 'all'], { DOCFLOW_KEY: key });
    assert.equal(run.status, 1);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /^docflow: 401 Unauthorized: unknown or inactive API key$/m);
    assert.equal(run.stderr.includes(key), false);
  });

  it('forms: put from a file and get to a file, both relative to the directory the command ran in', async () => {
    const form = { name: 'cli-note', title: 'CLI note', formsystype: 1, tags: { subject: 'string' } };
    writeFileSync(join(home, 'cli-note.json'), JSON.stringify(form));
    const put = answer(await inHome(['forms', 'put', 'cli-note', 'cli-note.json']));
    assert.equal(put.title, 'CLI note');

    assert.equal((await inHome(['forms', 'get', 'cli-note', '--out', 'saved.json'])).status, 0);
    const saved = JSON.parse(readFileSync(join(home, 'saved.json'), 'utf8'));
    assert.deepEqual({ ...saved, _meta: undefined }, { ...form, _meta: undefined });
    assert.equal(answer(await inHome(['forms', 'get', 'cli-note'])).name, 'cli-note');
    // A saved form, edited, puts back with its _meta (the server's bookkeeping, left out of the PUT).
    writeFileSync(join(home, 'saved.json'), JSON.stringify({ ...saved, title: 'CLI note, edited' }));
    const edited = answer(await inHome(['forms', 'put', 'cli-note', 'saved.json']));
    assert.equal(edited.title, 'CLI note, edited');
    assert.equal(edited._meta._rev, put._meta._rev + 1);

    const missing = await inHome(['forms', 'put', 'cli-note', 'no-such.json']);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, new RegExp(`cannot read ${join(home, 'no-such.json')}`));
  });

  it('documents: create with a file, get, history, export the bundle and verify it offline', async () => {
    writeFileSync(join(home, 'values.json'), JSON.stringify({ subject: 'from the command line' }));
    writeFileSync(join(home, 'evidence.txt'), 'evidence the CLI uploaded\n');
    const created = answer(
      await inHome([
        'documents',
        'create',
        'cli-note',
        '--values',
        '@values.json',
        '--tags',
        'cli,evidence',
        '--file',
        'evidence.txt',
      ]),
    );
    const id = created._id;
    const doc = answer(await inHome(['documents', 'get', id]));
    assert.equal(doc.valuesByTags.subject, 'from the command line');
    assert.deepEqual(doc._tags, ['cli', 'evidence']);
    assert.deepEqual(
      doc.filesList.map((f: { fileName: string }) => f.fileName),
      ['evidence.txt'],
    );
    const history = answer(await inHome(['documents', 'history', id]));
    assert.ok(history.length >= 1);
    assert.equal(history[0].data.files[0].name ?? history[0].data.files[0].fileName, 'evidence.txt');

    const exported = answer(await inHome(['documents', 'export', id, '--out', 'bundle.tar']));
    assert.equal(exported.out, join(home, 'bundle.tar'));
    assert.ok(exported.bytes > 0);
    assert.equal(readFileSync(join(home, 'bundle.tar')).length, exported.bytes);
    assert.equal(existsSync(join(home, 'bundle.tar.part')), false);
    const verdict = answer(await inHome(['verify', 'bundle.tar']));
    assert.equal(verdict.valid, true);
    assert.equal(verdict.documentId, id);

    // A bundle with one byte of its attachment changed does not verify: exit 1.
    const bundle = readFileSync(join(home, 'bundle.tar'));
    const at = bundle.indexOf('evidence the CLI');
    bundle[at] = 'E'.charCodeAt(0);
    writeFileSync(join(home, 'forged.tar'), bundle);
    const forged = await inHome(['verify', 'forged.tar']);
    assert.equal(forged.status, 1);
    assert.equal(JSON.parse(forged.stdout).valid, false);

    // On behalf of a person: the author.
    const email = `cli-author-${Date.now()}@example.com`;
    const author = answer(
      await inHome([
        'accounts',
        'create',
        '--kind',
        'person',
        '--email',
        email,
        '--first',
        'Ann',
        '--last',
        'Author',
      ]),
    );
    const theirs = answer(await inHome(['documents', 'create', 'cli-note', '--run-as', email]));
    assert.equal(theirs.author, author._id_sys);

    // --start: the workflow starts (state 1), or the document is created and stderr says why it did not.
    const flow = (participant: string) => ({
      name: 'cli-flow',
      title: 'CLI flow',
      formsystype: 1,
      tags: { subject: 'string' },
      workflow: { approval: { stages: [{ participants: [participant] }] } },
    });
    writeFileSync(join(home, 'cli-flow.json'), JSON.stringify(flow(email)));
    answer(await inHome(['forms', 'put', 'cli-flow', 'cli-flow.json']));
    const started = await inHome(['documents', 'create', 'cli-flow', '--start']);
    assert.equal(answer(started).state, 1);
    assert.equal(started.stderr, '');
    // cli-note configures no approval.
    const notStarted = await inHome(['documents', 'create', 'cli-note', '--start']);
    assert.equal(answer(notStarted).state, 0);
    assert.match(notStarted.stderr, /^docflow: created, but the workflow was not started: .*approval/m);

    const noFile = await inHome(['documents', 'create', 'cli-note', '--file', 'absent.pdf']);
    assert.equal(noFile.status, 2);
    assert.match(noFile.stderr, new RegExp(`no such file ${join(home, 'absent.pdf')}`));
    const badJson = await inHome(['documents', 'create', 'cli-note', '--values', '{subject']);
    assert.equal(badJson.status, 2);
    assert.match(badJson.stderr, /--values is not JSON/);
    const unwritable = await inHome(['documents', 'export', id, '--out', 'no-such-dir/bundle.tar']);
    assert.equal(unwritable.status, 2);
    assert.match(
      unwritable.stderr,
      /^docflow: ENOENT: no such file or directory, open '.*no-such-dir\/bundle.tar.part'$/m,
    );
    const badValues = await inHome(['documents', 'create', 'cli-note', '--values', '{"nope":"x"}']);
    assert.equal(badValues.status, 1);
    assert.match(badValues.stderr, /^docflow: 400 .*\n.*the form cli-note has no tag nope/m);
  });

  it('views list: one page with the total, or every page with --all', async () => {
    const tag = `page-${Date.now()}`;
    const ids = [];
    for (let i = 0; i < 3; i++)
      ids.push(answer(await inHome(['documents', 'create', 'cli-note', '--tags', tag]))._id);
    const listing = (extra: string[]) => inHome(['views', 'list', 'all', '--tags', tag, ...extra]);
    // The view catches up with the events shortly after the answer.
    let page = answer(await listing(['--page-size', '2']));
    for (let tries = 0; page.total < 3 && tries < 50; tries++) {
      await new Promise((r) => setTimeout(r, 100));
      page = answer(await listing(['--page-size', '2']));
    }
    assert.equal(page.total, 3);
    assert.equal(page.items.length, 2);
    const all = answer(await listing(['--page-size', '2', '--all']));
    assert.equal(all.total, 3);
    assert.deepEqual(all.items.map((d: { _id: string }) => d._id).sort(), [...ids].sort());
    const rest = answer(await listing(['--page-size', '2', '--first', '2']));
    assert.equal(rest.items.length, 1);

    const tooBig = await listing(['--page-size', '101']);
    assert.equal(tooBig.status, 2);
    assert.match(tooBig.stderr, /--page-size.*an integer from 1 to 100/);
  });

  it('exit codes: 2 for usage, 3 when the server cannot be reached', async () => {
    const noKey = await docflow(['documents', 'get', '0123456789abcdef01234567'], {
      env: { DOCFLOW_URL: target.baseUrl },
    });
    assert.equal(noKey.status, 2);
    assert.match(noKey.stderr, /no API key: give --key or DOCFLOW_KEY/);
    const unknown = await inHome(['documents', 'frobnicate']);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /unknown command 'frobnicate'/);
    const gone = await inHome(['views', 'list', 'all'], {
      DOCFLOW_URL: `http://127.0.0.1:${await freePort()}`,
    });
    assert.equal(gone.status, 3);
    assert.match(gone.stderr, /^docflow: cannot reach the server: ECONNREFUSED$/m);
  });

  it('--help on every command names its usage and the exit codes; --version', async () => {
    const commands = [
      [],
      ['accounts'],
      ['accounts', 'list'],
      ['accounts', 'get'],
      ['accounts', 'create'],
      ['accounts', 'activate'],
      ['accounts', 'deactivate'],
      ['accounts', 'roles'],
      ['forms'],
      ['forms', 'list'],
      ['forms', 'get'],
      ['forms', 'put'],
      ['documents'],
      ['documents', 'create'],
      ['documents', 'get'],
      ['documents', 'history'],
      ['documents', 'export'],
      ['search'],
      ['approve'],
      ['decline'],
      ['sign'],
      ['done'],
      ['manage'],
      ['download'],
      ['views'],
      ['views', 'list'],
      ['views', 'rebuild'],
      ['verify'],
      ['migrate'],
      ['migrate', 'reseal-identity'],
    ];
    for (const command of commands) {
      const help = await inHome([...command, '--help']);
      assert.equal(help.status, 0, command.join(' '));
      assert.match(help.stdout, new RegExp(`^Usage: ${['docflow', ...command].join(' ')} `, 'm'));
      assert.match(help.stdout, /4 {2}views rebuild: the data directory is in use/);
      assert.equal(help.stdout.includes(target.adminKey), false, 'the key from the environment is not shown');
    }
    assert.match((await inHome(['--version'])).stdout, /^\d+\.\d+\.\d+\n$/);
  });
});
