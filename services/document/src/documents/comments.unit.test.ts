/** The comment thread's decision and fold (issue 36): the text is kept exactly as written. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evolveDoc, initialDoc } from '@docflow/document-model';
import { decideAddComment } from './comments';

const BOB = 'usr-00000000-0000-4000-8000-00000000000b';
const TEXT = '**bold** <b>html</b> stays text';
const AT = '2026-11-26T10:00:00.000Z';

describe('comments', () => {
  it('one CommentAdded with the author and the text as written; folded into the thread with its time', () => {
    const doc = { ...initialDoc, exists: true, id: 'd'.repeat(24), rev: 3 };
    const events = decideAddComment({ commentId: 'c'.repeat(24), author: BOB, text: TEXT }, doc);
    assert.deepEqual(events, [
      { type: 'CommentAdded', data: { commentId: 'c'.repeat(24), author: BOB, text: TEXT } },
    ]);
    const after = evolveDoc(doc, events[0]!, { revision: 4, metadata: { timestamp: AT } });
    assert.deepEqual(after.comments, [{ id: 'c'.repeat(24), author: BOB, text: TEXT, at: AT }]);
  });

  it('no document, no comment', () => {
    assert.throws(() => decideAddComment({ commentId: 'c'.repeat(24), author: BOB, text: 'x' }, initialDoc));
  });
});
