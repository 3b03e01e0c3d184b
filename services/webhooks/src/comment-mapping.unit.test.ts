/** A comment reaches webhooks as its id only (issue 36): never its text. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type DocumentFacts, mapDocumentEvent } from './event-mapping';
import { documentEnvelope, FIXTURE_DOC } from './test-fixtures';

const BOB = 'usr-3f2b8c1e-9d4a-4c7e-8b1f-2a6d5e7c9b01';
const COMMENT = '65a1f0c2b3d4e5f6012345cc';
const KNOWN: DocumentFacts = { form: 'memo', phase: 'approval', status: 'inProgress', step: 1, iteration: 1 };

describe('CommentAdded → comment.added', () => {
  it('carries the document and the comment id; the text stays out; the position is unchanged', () => {
    const envelope = documentEnvelope(
      'CommentAdded',
      { commentId: COMMENT, author: BOB, text: 'secret remark' },
      4,
    );
    const mapped = mapDocumentEvent(envelope, KNOWN)!;
    assert.deepEqual(mapped.facts, KNOWN);
    assert.equal(mapped.events.length, 1);
    const [event] = mapped.events;
    assert.equal(event!.type, 'comment.added');
    assert.equal(event!.payload.data.commentId, COMMENT);
    assert.equal(event!.payload.data.documentId, FIXTURE_DOC);
    assert.equal(event!.payload.data.revision, 4);
    assert.ok(!JSON.stringify(event).includes('secret remark'));
    assert.ok(!JSON.stringify(event).includes(BOB), 'nor who wrote it');
  });
});
