import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { createAttachmentIndex } from './attachment-index';

const hash = (c: string) => c.repeat(64);
const DOC_A = 'a'.repeat(24);
const DOC_B = 'b'.repeat(24);
const FILE_1 = '1'.repeat(24);
const FILE_2 = '2'.repeat(24);
const DOC_C = 'c'.repeat(24);

describe('attachment index', () => {
  it('knows a hash once a document holds it, and only then', () => {
    const index = createAttachmentIndex(openLocalDb(':memory:'));
    assert.equal(index.isAttached(hash('e')), false);
    index.attach(DOC_A, [
      { id: FILE_1, sha256: hash('e') },
      { id: FILE_2, sha256: hash('f') },
    ]);
    assert.equal(index.isAttached(hash('e')), true);
    assert.equal(index.isAttached(hash('f')), true);
    assert.equal(index.isAttached(hash('c')), false);
  });

  it('applies the same facts twice without error or duplicate rows', () => {
    const db = openLocalDb(':memory:');
    const index = createAttachmentIndex(db);
    const files = [{ id: FILE_1, sha256: hash('e') }];
    index.attach(DOC_A, files);
    index.attach(DOC_A, files);
    const { n } = db.prepare('SELECT count(*) AS n FROM file_attachments').get() as { n: number };
    assert.equal(n, 1);
  });

  it('accepts a document without files', () => {
    const index = createAttachmentIndex(openLocalDb(':memory:'));
    index.attach(DOC_A, []);
    assert.equal(index.isAttached(hash('e')), false);
  });

  it('keeps its tables when opened again on the same database', () => {
    const db = openLocalDb(':memory:');
    createAttachmentIndex(db).attach(DOC_A, [{ id: FILE_1, sha256: hash('e') }]);
    assert.equal(createAttachmentIndex(db).isAttached(hash('e')), true);
  });

  it('does not count a deleted document, while another live one still holds the hash', () => {
    const db = openLocalDb(':memory:');
    const index = createAttachmentIndex(db);
    index.attach(DOC_A, [{ id: FILE_1, sha256: hash('e') }]);
    index.attach(DOC_B, [{ id: FILE_2, sha256: hash('e') }]);
    index.markDeleted(DOC_A);
    assert.equal(index.isAttached(hash('e')), true);
    index.markDeleted(DOC_B);
    assert.equal(index.isAttached(hash('e')), false);
  });

  it('knows a file once any document lists it, deleted documents included', () => {
    const db = openLocalDb(':memory:');
    const index = createAttachmentIndex(db);
    assert.equal(index.isFileAttached(FILE_1), false);
    index.attach(DOC_A, [{ id: FILE_1, sha256: hash('e') }]);
    assert.equal(index.isFileAttached(FILE_1), true);
    assert.equal(index.isFileAttached(FILE_2), false, 'same document, another file');
    index.markDeleted(DOC_A);
    assert.equal(index.isFileAttached(FILE_1), true);
  });

  it('claims with allowDupl=false only content no other live document holds, recording nothing when refused', () => {
    const index = createAttachmentIndex(openLocalDb(':memory:'));
    index.claim(DOC_A, [{ id: FILE_1, sha256: hash('e') }], false);
    index.claim(DOC_A, [{ id: FILE_1, sha256: hash('e') }], false);
    assert.throws(
      () =>
        index.claim(
          DOC_B,
          [
            { id: FILE_2, sha256: hash('f') },
            { id: '3'.repeat(24), sha256: hash('e') },
          ],
          false,
        ),
      /already attached/,
    );
    assert.equal(index.isFileAttached(FILE_2), false, 'the refused claim recorded none of its files');
    index.claim(DOC_B, [{ id: FILE_2, sha256: hash('e') }], true);
    assert.equal(index.isFileAttached(FILE_2), true);
    index.markDeleted(DOC_A);
    index.markDeleted(DOC_B);
    index.claim(DOC_C, [{ id: '4'.repeat(24), sha256: hash('e') }], false);
    assert.equal(index.isFileAttached('4'.repeat(24)), true, 'deleted documents hold nothing');
  });

  it('releases a claim, so its content is free and its files unattached; never for a created document', () => {
    const index = createAttachmentIndex(openLocalDb(':memory:'));
    index.claim(DOC_A, [{ id: FILE_1, sha256: hash('e') }], false);
    index.release(DOC_A);
    assert.equal(index.isAttached(hash('e')), false);
    assert.equal(index.isFileAttached(FILE_1), false);
    index.release(DOC_A);

    index.claim(DOC_B, [{ id: FILE_2, sha256: hash('f') }], false);
    index.attach(DOC_B, [{ id: FILE_2, sha256: hash('f') }]);
    assert.throws(() => index.release(DOC_B), /never released/);
    assert.equal(index.isFileAttached(FILE_2), true);
  });
});
