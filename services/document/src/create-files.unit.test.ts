import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rejections } from '@docflow/contracts';
import { AppendTooLarge, StoreUnavailable, WrongExpectedRevision } from '@docflow/eventstore';
import { problems } from '@docflow/kit/http';
import { appendWroteNothing } from './create-files';

const absent = async () => false;
const present = async () => true;
const unreadable = async (): Promise<boolean> => {
  throw new StoreUnavailable('timed out');
};

describe('whether a failed append of DocumentCreated wrote nothing', () => {
  it('is certain for a refusal (below 500) when the stream holds no document', async () => {
    for (const err of [
      rejections.invalid('bad value'),
      new AppendTooLarge('docForm-1', 1_048_576, 2_000_000),
      new WrongExpectedRevision('docForm-1', 0, 1),
      problems.conflict('taken'),
    ])
      assert.equal(await appendWroteNothing(err, absent), true, String(err));
  });

  it('is not when the document is there after all, or cannot be read', async () => {
    const conflict = rejections.conflict('document exists already');
    assert.equal(await appendWroteNothing(conflict, present), false);
    assert.equal(await appendWroteNothing(conflict, unreadable), false);
  });

  it('is not for a store that did not answer, nor an unknown error, whatever a read says', async () => {
    assert.equal(await appendWroteNothing(new StoreUnavailable('timed out'), absent), false);
    assert.equal(await appendWroteNothing(new Error('socket hang up'), absent), false);
  });
});
