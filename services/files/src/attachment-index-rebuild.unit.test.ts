/** The attachment index rebuilt from the document service's live documents: once, page by page (issue 31). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LiveAttachmentsPage } from '@docflow/contracts';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { createAttachmentIndex } from './attachment-index';

const hash = (c: string) => c.repeat(64);
const DOC_A = 'a'.repeat(24);
const DOC_B = 'b'.repeat(24);
const FILE_1 = '1'.repeat(24);
const FILE_2 = '2'.repeat(24);

describe('attachment index rebuild', () => {
  it('holds every live document\u2019s files after reading every page, and reads them once', async () => {
    const db = openLocalDb(':memory:');
    const index = createAttachmentIndex(db);
    const pages: Record<string, LiveAttachmentsPage> = {
      first: { documents: [{ id: DOC_A, files: [{ id: FILE_1, sha256: hash('e') }] }], next: DOC_A },
      [DOC_A]: { documents: [{ id: DOC_B, files: [{ id: FILE_2, sha256: hash('f') }] }], next: null },
    };
    const asked: (string | undefined)[] = [];
    const fetchPage = async (after: string | undefined) => {
      asked.push(after);
      return pages[after ?? 'first']!;
    };
    assert.equal(index.rebuilt(), false);
    await index.rebuild(fetchPage);
    assert.equal(index.isAttached(hash('e')), true);
    assert.equal(index.isAttached(hash('f')), true);
    assert.equal(index.isFileAttached(FILE_2), true);
    assert.equal(index.rebuilt(), true);
    // Created documents: a late release of their claim is refused.
    assert.throws(() => index.release(DOC_A));
    await createAttachmentIndex(db).rebuild(fetchPage);
    assert.deepEqual(asked, [undefined, DOC_A], 'rebuilt once');
  });

  it('a document deleted while the index was rebuilt holds nothing', async () => {
    const index = createAttachmentIndex(openLocalDb(':memory:'));
    index.markDeleted(DOC_A);
    await index.rebuild(async () => ({
      documents: [{ id: DOC_A, files: [{ id: FILE_1, sha256: hash('e') }] }],
      next: null,
    }));
    assert.equal(index.isAttached(hash('e')), false);
    assert.equal(index.isFileAttached(FILE_1), true, 'its file is still never discarded');
  });
});
