/**
 * A document's history as a person reads it (issue 33), over real HTTP on an embedded server: a memo
 * goes through approval and sign with comments and edits, by a person signed in and by a portal acting
 * on behalf of people; every history entry says in words who did what, people named as identity names
 * them now — an erased person as `[erased]`. Documents are titled by the field their form names, and a
 * read names the accounts it names (`embed=names`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDoc, eventually } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { signIn, withCookie } from '../support/sign-in';
import { startEmbedded, type Target } from '../support/targets';

const PASSWORD = 'History-Summary-Password-5d1e';
const FORM = {
  name: 'memo-words',
  title: 'Memo in words',
  formsystype: 1,
  tags: { subject: 'string', total: 'string', lines: 'table' },
  titleField: 'subject',
  workflow: {
    approval: { stages: [{ participants: ['bob@example.com', 'erin@example.com'] }], next: 'sign' },
    sign: { stages: [{ participants: ['carol@example.com'] }] },
  },
};

describe('history in words [embedded]', { timeout: 300_000 }, () => {
  let target: Target;
  let api: Api;
  let admin: string;
  let portal: string;
  const ids: Record<string, string> = {};
  let docId = '';

  const asPortal = (person: string) => ({ key: portal, runAs: ids[person] });
  const summaries = async (query = '') => {
    const res = await api('GET', `/api/v2/docForm/${docId}/history${query}`, { key: admin });
    assert.equal(res.status, 200, res.text);
    return (res.body as Array<{ summary: string }>).map((e) => e.summary);
  };
  async function openTask(person: string, as: Api = api, options: object = asPortal(person)) {
    const res = await as('GET', `/api/v2/docForm/${docId}?embed=docResponse`, options);
    assert.equal(res.status, 200, res.text);
    assert.ok(res.body.docResponse, `${person} has an open task`);
    return res.body.docResponse.respId as string;
  }

  before(async () => {
    target = await startEmbedded();
    api = apiClient(target.baseUrl);
    admin = target.adminKey;
    for (const name of ['alice', 'bob', 'carol', 'erin']) {
      const res = await api('POST', '/api/admin/v1/accounts', {
        key: admin,
        body: {
          kind: 'person',
          email: `${name}@example.com`,
          name_first: name[0]!.toUpperCase() + name.slice(1),
          name_last: 'Example',
        },
      });
      assert.equal(res.status, 201, res.text);
      ids[name] = res.body._id_sys;
    }
    const pwd = await api('POST', '/api/v2/person', {
      key: admin,
      body: { _id_sys: ids.bob, pwd: PASSWORD },
    });
    assert.equal(pwd.status, 200, pwd.text);
    const service = await api('POST', '/api/admin/v1/accounts', {
      key: admin,
      body: { kind: 'service', email: 'portal@example.com', name_first: 'Portal', name_last: 'Service' },
    });
    assert.equal(service.status, 201, service.text);
    portal = service.body.apiKey;
    const form = await api('PUT', `/api/admin/v1/forms/${FORM.name}`, { key: admin, body: FORM });
    assert.equal(form.status, 201, form.text);
  });
  after(() => target?.stop());

  it('says who did what on whose behalf: creation, approvals with comments, phases, a signature with edits', async () => {
    const created = await createDoc(
      target.baseUrl,
      portal,
      FORM.name,
      {
        docForm: { valuesByTags: { subject: 'Budget 2027', total: '209.50' } },
        docResponse: { taskstatus: 100 },
      },
      { runAs: ids.alice },
    );
    assert.equal(created.status, 201, created.text);
    docId = created.body._id;

    // Bob signs in as himself and approves.
    const bob = withCookie(
      target.baseUrl,
      (await signIn(target.baseUrl, 'bob@example.com', PASSWORD)).cookie,
    );
    const bobTask = await openTask('bob', bob, {});
    const approved = await bob('PUT', `/api/v2/docForm/${docId}/docResponse/${bobTask}`, {
      body: { docResponse: { taskstatus: 2, content: 'ok' } },
    });
    assert.equal(approved.status, 200, approved.text);
    // Erin approves through the portal: the stage, and with it the approval, is complete.
    const erinTask = await openTask('erin');
    const erin = await api('PUT', `/api/v2/docForm/${docId}/docResponse/${erinTask}`, {
      ...asPortal('erin'),
      body: { docResponse: { taskstatus: 2, content: 'fine' } },
    });
    assert.equal(erin.status, 200, erin.text);
    // Carol signs and corrects the total in the same request.
    const carolTask = await openTask('carol');
    const signed = await api('PUT', `/api/v2/docForm/${docId}/docResponse/${carolTask}`, {
      ...asPortal('carol'),
      body: { docForm: { valuesByTags: { total: '209.55' } }, docResponse: { taskstatus: 8, content: '' } },
    });
    assert.equal(signed.status, 200, signed.text);

    assert.deepEqual(await summaries(), [
      'Portal Service on behalf of Alice Example created the document',
      'Portal Service on behalf of Alice Example started approval. Phase: registration → approval. ' +
        'Status: draft → in progress. Waiting for Bob Example and Erin Example',
      "Bob Example approved with the comment 'ok'",
      "Portal Service on behalf of Erin Example approved with the comment 'fine'. Phase: approval → sign. " +
        'Waiting for Carol Example',
      'Portal Service on behalf of Carol Example signed. Status: in progress → completed',
      'Portal Service on behalf of Carol Example signed with edits: total 209.50 → 209.55',
    ]);
    // A page reads its entries in the context of those before it (the answer the edits came with).
    assert.deepEqual(await summaries('?first=5&pageSize=1'), [
      'Portal Service on behalf of Carol Example signed with edits: total 209.50 → 209.55',
    ]);
    // The NDJSON stream carries the same words.
    const ndjson = await api('GET', `/api/v2/docForm/${docId}/history?first=2&pageSize=1`, {
      key: admin,
      headers: { accept: 'application/x-ndjson' },
    });
    assert.equal(ndjson.status, 200, ndjson.text);
    assert.equal(JSON.parse(ndjson.text.trim()).summary, "Bob Example approved with the comment 'ok'");
  });

  it('names an erased person "[erased]" in every entry that named her', async () => {
    const erased = await api('POST', `/api/admin/v1/accounts/${ids.erin}/erase`, { key: admin });
    assert.equal(erased.status, 200, erased.text);
    const words = await summaries();
    assert.equal(
      words[1],
      'Portal Service on behalf of Alice Example started approval. Phase: registration → approval. ' +
        'Status: draft → in progress. Waiting for Bob Example and [erased]',
    );
    assert.equal(
      words[3],
      "Portal Service on behalf of [erased] approved with the comment 'fine'. Phase: approval → sign. " +
        'Waiting for Carol Example',
    );
    assert.ok(!words.join('\n').includes('Erin'), words.join('\n'));
  });

  it('titles a document by its form’s title field in the read and the lists, else by the form’s title and day', async () => {
    const read = await api('GET', `/api/v2/docForm/${docId}`, { key: admin });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.title, 'Budget 2027');
    const listed = await eventually(
      () => api('GET', '/api/v2/docForm/view/all?pageSize=100', { key: admin }),
      (r) => r.body.some?.((d: { _id: string }) => d._id === docId),
    );
    assert.equal(listed.body.find((d: { _id: string }) => d._id === docId)?.title, 'Budget 2027');

    const plain = { name: 'plain-words', title: 'Plain note', formsystype: 1, tags: { subject: 'string' } };
    assert.equal(
      (await api('PUT', `/api/admin/v1/forms/${plain.name}`, { key: admin, body: plain })).status,
      201,
    );
    const untitled = await createDoc(target.baseUrl, admin, plain.name, { docForm: { valuesByTags: {} } });
    assert.equal(untitled.status, 201, untitled.text);
    assert.equal(untitled.body.title, `Plain note, ${untitled.body.datecreated.slice(0, 10)}`);

    for (const titleField of ['lines', 'nosuch']) {
      const bad = await api('PUT', `/api/admin/v1/forms/${FORM.name}`, {
        key: admin,
        body: { ...FORM, titleField },
      });
      assert.equal(bad.status, 400, bad.text);
      assert.equal(bad.body.errors?.[0]?.message, 'names no string tag of the form', bad.text);
    }
  });

  it('names the accounts a document names with embed=names: people as they are now, a service account by its name', async () => {
    const read = await api('GET', `/api/v2/docForm/${docId}?embed=names`, asPortal('alice'));
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body.names, {
      [ids.alice!]: 'Alice Example',
      [ids.bob!]: 'Bob Example',
      [ids.erin!]: '[erased]',
      [ids.carol!]: 'Carol Example',
    });
    // A document whose author is a service account (the console asked the person directory: 404).
    const byPortal = await createDoc(target.baseUrl, portal, FORM.name, { docForm: { valuesByTags: {} } });
    assert.equal(byPortal.status, 201, byPortal.text);
    const named = await api('GET', `/api/v2/docForm/${byPortal.body._id}?embed=names&fields=author`, {
      key: portal,
    });
    assert.equal(named.status, 200, named.text);
    assert.deepEqual(named.body.names, { [byPortal.body.author]: 'Portal Service' });
  });
});
