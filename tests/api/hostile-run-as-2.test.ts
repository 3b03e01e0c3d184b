/**
 * Run-as never adds rights, for the document administration roles (issue 29, finding 10; DESIGN.md
 * "Run-as"): a person who may read a document (a participant of its approval) and holds svcAdminDocRW
 * and svcAdminDocRWD manages and deletes other people's documents in their own name, but through a
 * service account that does not hold those roles they count not: the person's document rights stay
 * (reading, answering their own task), the management of the author's document is 403.
 * hostile-run-as.test.ts covers svcAdminSysRW, svcAdminDocsRW and svcAuditR.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDoc, createPerson } from '../support/documents';
import { type Api, type ApiResponse, apiClient } from '../support/http';
import { startEmbedded, type Target } from '../support/targets';

const SUSPEND = 101;
const DELETE = 111;

function assertForbidden(res: ApiResponse) {
  assert.equal(res.status, 403, res.text);
  assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
}

describe('run-as never adds the document administration roles [embedded]', { timeout: 180_000 }, () => {
  let target: Target;
  let api: Api;
  /** A service account holding no role at all: what any client has. */
  let anyKey: string;
  let boss: string;

  before(async () => {
    target = await startEmbedded();
    api = apiClient(target.baseUrl);
    boss = await createPerson(api, target.adminKey, 'boss@example.com', ['svcAdminDocRW', 'svcAdminDocRWD']);
    await createPerson(api, target.adminKey, 'bob@example.com');
    const svc = await api('POST', '/api/admin/v1/accounts', {
      key: target.adminKey,
      body: { kind: 'service', email: 'portal@example.com', name_first: 'P', name_last: 'S' },
    });
    assert.equal(svc.status, 201, svc.text);
    anyKey = svc.body.apiKey;
    const form = await api('PUT', '/api/admin/v1/forms/approved', {
      key: target.adminKey,
      body: {
        name: 'approved',
        title: 'Approved',
        formsystype: 9,
        tags: { subject: 'string' },
        workflow: { approval: { stages: [{ participants: ['boss@example.com'] }] } },
      },
    });
    assert.equal(form.status, 201, form.text);
  });
  after(() => target?.stop());

  /** A document of bob's in approval, boss its approver. */
  async function bobsDocument(): Promise<string> {
    const doc = await createDoc(
      target.baseUrl,
      anyKey,
      'approved',
      { docForm: { valuesByTags: { subject: 'bob' } }, docResponse: { taskstatus: 100 } },
      { runAs: 'bob@example.com' },
    );
    assert.equal(doc.status, 201, doc.text);
    return doc.body._id;
  }
  const move = (id: string, key: string, taskstatus: number) =>
    api('POST', `/api/v2/docForm/${id}/docResponse`, {
      key,
      runAs: boss,
      body: { docResponse: { taskstatus } },
    });

  it('a role-less service account running as boss: reads bob’s document, but suspending or deleting it is 403', async () => {
    const id = await bobsDocument();
    const read = await api('GET', `/api/v2/docForm/${id}`, { key: anyKey, runAs: boss });
    assert.equal(read.status, 200, 'boss reads it as its approver');
    assertForbidden(await move(id, anyKey, SUSPEND));
    assertForbidden(await move(id, anyKey, DELETE));
    const after = await api('GET', `/api/v2/docForm/${id}`, { key: target.adminKey });
    assert.equal(after.body._meta._rev, read.body._meta._rev, 'nothing was recorded');
  });

  it('a service account holding the roles too (the bootstrap admin) running as boss: both act', async () => {
    const id = await bobsDocument();
    const suspended = await move(id, target.adminKey, SUSPEND);
    assert.equal(suspended.status, 200, suspended.text);
    const deleted = await move(id, target.adminKey, DELETE);
    assert.equal(deleted.status, 200, deleted.text);
  });
});
