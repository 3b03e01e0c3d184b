import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Rejection, type RejectionKind } from '@docflow/contracts';
import { DUPLICATE_CONTENT, decideClaim, decideDiscard, decideRelease } from './businessLogic';
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

describe('claiming files for a new document', () => {
  const e = { id: '1'.repeat(24), sha256: 'e'.repeat(64) };
  const f = { id: '2'.repeat(24), sha256: 'f'.repeat(64) };
  const held = (...hashes: string[]) => ({ heldElsewhere: new Set(hashes) });
  const duplicate = (err: unknown) =>
    problem('conflict')(err) && (err as Error).message === DUPLICATE_CONTENT;

  // given: which contents other live documents hold; when: the claim; then: what is recorded, or 409.
  const cases: [string, boolean, ReturnType<typeof held>, 'recorded' | 'refused'][] = [
    ['no other document holds the content', false, held(), 'recorded'],
    ['another live document holds one of the contents', false, held(f.sha256), 'refused'],
    ['another live document holds it, allowDupl=true', true, held(e.sha256, f.sha256), 'recorded'],
    ['another document holds other content only', false, held('c'.repeat(64)), 'recorded'],
  ];
  for (const [given, allowDupl, state, then] of cases)
    it(`${then} when ${given}`, () => {
      const decide = () => decideClaim({ files: [e, f], allowDupl }, state);
      if (then === 'refused') assert.throws(decide, duplicate);
      else assert.deepEqual(decide(), [e, f]);
    });

  it('records one content twice in one claim (only other documents count)', () => {
    const twin = { id: '3'.repeat(24), sha256: e.sha256 };
    assert.deepEqual(decideClaim({ files: [e, twin], allowDupl: false }, held()), [e, twin]);
  });

  it('releases the claim of a document never created, and refuses once it exists', () => {
    assert.doesNotThrow(() => decideRelease({ created: false }));
    assert.throws(() => decideRelease({ created: true }), problem('conflict'));
  });
});
