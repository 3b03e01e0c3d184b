import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Rejection, type RejectionKind } from '@docflow/contracts';
import { decideDiscard } from './businessLogic';
import { type FileEvent, type FileState, fileAggregate } from './file';

const ID = 'a'.repeat(24);
const stored: FileEvent = {
  type: 'FileStored',
  data: {
    id: ID,
    fileName: 'a.pdf',
    size: 3,
    sha256: 'e'.repeat(64),
    contentType: 'application/pdf',
    blobKey: 'e'.repeat(64),
  },
};
const discarded: FileEvent = { type: 'FileDiscarded', data: { id: ID, reason: 'rejected' } };
const given = (...events: FileEvent[]): FileState =>
  events.reduce(
    (state, event, i) =>
      fileAggregate.evolve(state, event, {
        revision: i + 1,
        metadata: { correlationId: 'c', timestamp: '' },
      }),
    fileAggregate.initial,
  );
const problem = (kind: RejectionKind) => (err: unknown) => err instanceof Rejection && err.kind === kind;

describe('discarding a file', () => {
  it('discards a stored file no document holds, with the reason', () => {
    assert.deepEqual(decideDiscard({ id: ID, reason: 'unattached', attached: false }, given(stored)), [
      { type: 'FileDiscarded', data: { id: ID, reason: 'unattached' } },
    ]);
  });

  it('decides nothing for a file discarded already', () => {
    assert.deepEqual(
      decideDiscard({ id: ID, reason: 'rejected', attached: false }, given(stored, discarded)),
      [],
    );
  });

  it('refuses a file a document holds (409) and an unknown one (404)', () => {
    assert.throws(
      () => decideDiscard({ id: ID, reason: 'rejected', attached: true }, given(stored)),
      problem('conflict'),
    );
    assert.throws(
      () => decideDiscard({ id: ID, reason: 'rejected', attached: false }, given()),
      problem('notFound'),
    );
  });

  it('folds FileDiscarded into a state that keeps what was stored', () => {
    const state = given(stored, discarded);
    assert.equal(state.discarded, true);
    assert.deepEqual(state.stored, stored.data);
    assert.deepEqual(fileAggregate.parse('FileDiscarded', discarded.data), discarded);
    assert.throws(() => fileAggregate.parse('FileDiscarded', { id: ID, reason: 'because' }));
  });
});
