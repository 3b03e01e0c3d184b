/**
 * The internal title route (issue 36: what the e-mail notifications call a document) on a real SQLite
 * store: the form's title field's value, else the form's title and the creation date; 404 for a
 * deleted or unknown document, and 401 without the internal token.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { docFormStream, documentTitleRoute } from '@docflow/contracts';
import { newHexId } from '@docflow/kit';
import { recordEvents } from '@docflow/kit/eventsourcing';
import { inProcessClient, internalClient, ProblemError } from '@docflow/kit/http';
import { sqliteDocumentService } from '../testing/sqlite-document';

const TOKEN = 'test-internal-token-of-at-least-32-chars';
const AUTHOR = 'usr-00000000-0000-4000-8000-000000000001';
const AT = '2026-03-02T10:00:00.000Z';
const metadata = () => ({ correlationId: randomUUID(), actor: AUTHOR, timestamp: AT });

describe('document title route', () => {
  const { document, store, close } = sqliteDocumentService('document-title-test', TOKEN);
  after(close);

  const client = internalClient(inProcessClient(document.app.fetch), TOKEN);
  const titleOf = (docId: string) =>
    client.call(
      documentTitleRoute,
      { params: { docId } },
      {
        principal: { account: 'workflow', subject: 'workflow', roles: [] },
        ids: { requestId: randomUUID(), correlationId: randomUUID() },
      },
    );
  async function created(subject: string): Promise<string> {
    const id = newHexId();
    const data = {
      id,
      form: 'memo',
      formsystype: 9,
      author: AUTHOR,
      valuesByTags: { subject },
      tags: [],
      files: [],
      datedue: '',
      title: { formTitle: 'Internal memo', field: 'subject' },
    };
    await recordEvents(store, docFormStream(id), [{ type: 'DocumentCreated', data }], metadata());
    return id;
  }
  const notFound = (error: unknown) => error instanceof ProblemError && error.status === 404;

  it('answers the title field’s value, else the form’s title and the creation date', async () => {
    assert.deepEqual(await titleOf(await created('Budget 2027')), { title: 'Budget 2027' });
    assert.deepEqual(await titleOf(await created('')), { title: 'Internal memo, 2026-03-02' });
  });

  it('a deleted or unknown document is 404; without the internal token 401', async () => {
    const deleted = await created('Gone');
    const facts = { sourceIds: [randomUUID()], events: [{ type: 'DocumentDeleted', data: { at: AT } }] };
    await recordEvents(store, docFormStream(deleted), [{ type: 'WorkflowChanged', data: facts }], metadata());
    await assert.rejects(titleOf(deleted), notFound);
    await assert.rejects(titleOf(newHexId()), notFound);
    const bare = await document.app.request(`/internal/v1/documents/${deleted}/title`);
    assert.equal(bare.status, 401);
  });
});
