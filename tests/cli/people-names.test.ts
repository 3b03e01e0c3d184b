/**
 * People in the `docflow` command's lists (issue 33), against a fresh embedded instance: a documents
 * table names each author as people read them (`[erased]` after an erasure), never by id, and the
 * JSON carries the names too; an author filter takes the e-mail of a deactivated person (looked up
 * exactly, through identity's keyed hash); `accounts list --name` finds people by a name's start.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDoc } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { startEmbedded, type Target } from '../support/targets';
import { answer, docflow } from './run-docflow';

const FORM = { name: 'named-memo', title: 'Named memo', formsystype: 1, tags: { subject: 'string' } };

describe('docflow lists name people', { timeout: 300_000 }, () => {
  let target: Target;
  let api: Api;
  let env: Record<string, string>;
  const ids: Record<string, string> = {};
  const run = (args: string[]) => docflow(args, { env });

  before(async () => {
    target = await startEmbedded();
    api = apiClient(target.baseUrl);
    env = { DOCFLOW_URL: target.baseUrl, DOCFLOW_KEY: target.adminKey };
    for (const [who, last] of [
      ['alice', 'Named'],
      ['dora', 'Dormant'],
    ] as const) {
      const res = await api('POST', '/api/admin/v1/accounts', {
        key: target.adminKey,
        body: { kind: 'person', email: `${who}@example.com`, name_first: who, name_last: last, roles: [] },
      });
      assert.equal(res.status, 201, res.text);
      ids[who] = res.body._id_sys;
    }
    const form = await api('PUT', `/api/admin/v1/forms/${FORM.name}`, { key: target.adminKey, body: FORM });
    assert.equal(form.status, 201, form.text);
    for (const who of ['alice', 'dora']) {
      const created = await createDoc(
        target.baseUrl,
        target.adminKey,
        FORM.name,
        { docForm: { valuesByTags: { subject: `By ${who}` } } },
        { runAs: ids[who] },
      );
      assert.equal(created.status, 201, created.text);
    }
  });
  after(() => target?.stop());

  it('a documents table names each author; the JSON carries the names', async () => {
    const table = await run(['views', 'list', 'all', '--form', FORM.name, '--output', 'table']);
    assert.equal(table.status, 0, table.stderr);
    assert.match(table.stdout, /^\S+ +named-memo +By alice +0 registration +1 draft +alice Named +/m);
    assert.match(table.stdout, /^\S+ +named-memo +By dora +0 registration +1 draft +dora Dormant +/m);
    assert.doesNotMatch(table.stdout, /usr-/);
    const json = answer(await run(['views', 'list', 'all', '--form', FORM.name]));
    const alices = json.items.find((d: { author: string }) => d.author === ids.alice);
    assert.deepEqual(alices.names, { [ids.alice!]: 'alice Named' });
  });

  it('an erased author is "[erased]" in the table', async () => {
    const erased = await api('POST', `/api/admin/v1/accounts/${ids.alice}/erase`, { key: target.adminKey });
    assert.equal(erased.status, 200, erased.text);
    const table = await run(['search', 'alice', '--output', 'table']);
    assert.equal(table.status, 0, table.stderr);
    assert.match(table.stdout, /^\S+ +named-memo +By alice +0 registration +1 draft +\[erased\] +/m);
  });

  it('accounts list --name finds people by the start of a name', async () => {
    const found = answer(await run(['accounts', 'list', '--name', 'dorm']));
    assert.deepEqual(
      found.items.map((a: { _id_sys: string }) => a._id_sys),
      [ids.dora],
    );
    const table = await run(['accounts', 'list', '--name', 'DOR', '--output', 'table']);
    assert.match(table.stdout, /^usr-\S+ +person +dora@example\.com +dora Dormant +/m);
  });

  it("the author filter takes a deactivated person's e-mail", async () => {
    const off = await api('PATCH', `/api/admin/v1/accounts/${ids.dora}`, {
      key: target.adminKey,
      body: { active: false },
    });
    assert.equal(off.status, 200, off.text);
    const listed = answer(await run(['views', 'list', 'all', '--author', 'DORA@example.com']));
    assert.deepEqual(
      listed.items.map((d: { author: string }) => d.author),
      [ids.dora],
    );
    const nobody = await run(['views', 'list', 'all', '--author', 'nobody@example.com']);
    assert.equal(nobody.status, 6);
    assert.match(nobody.stderr, /no account nobody@example\.com/);
  });
});
