/** The document's entity tags and how If-None-Match and If-Match compare them. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProblemError } from '@docflow/kit/http';
import { etagOf, notModified, requireIfMatch } from './preconditions';

const refused = (header: string, rev: number) => {
  try {
    requireIfMatch(header, rev);
    return undefined;
  } catch (err) {
    assert.ok(err instanceof ProblemError);
    return err.status;
  }
};

describe('document preconditions', () => {
  it('the entity tag is the revision, strong and quoted', () => {
    assert.equal(etagOf(7), '"7"');
  });

  it('If-None-Match: the current tag (weak or strong, in a list) or * means not modified', () => {
    assert.equal(notModified(undefined, 3), false);
    assert.equal(notModified('"3"', 3), true);
    assert.equal(notModified('W/"3"', 3), true);
    assert.equal(notModified('"1", "3"', 3), true);
    assert.equal(notModified('*', 3), true);
    assert.equal(notModified('"2"', 3), false);
    assert.equal(notModified('3', 3), false, 'unquoted is no entity tag');
  });

  it('If-Match: absent passes; the current strong tag or * passes; anything else is 412', () => {
    assert.equal(refused(undefined as never, 3), undefined);
    assert.equal(refused('"3"', 3), undefined);
    assert.equal(refused('"2", "3"', 3), undefined);
    assert.equal(refused('*', 3), undefined);
    assert.equal(refused('"2"', 3), 412);
    assert.equal(refused('W/"3"', 3), 412, 'a weak tag never matches a strong comparison');
    assert.equal(refused('"bogus"', 3), 412);
    assert.equal(refused('bogus', 3), 412);
  });

  it('If-Match pins the revision when a tag names it; not when absent or only *', () => {
    assert.equal(requireIfMatch(undefined, 3), false);
    assert.equal(requireIfMatch('"3"', 3), true);
    assert.equal(requireIfMatch('*', 3), false);
    assert.equal(requireIfMatch('*, "3"', 3), true);
  });
});
