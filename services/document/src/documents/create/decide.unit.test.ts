import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_APPEND_BYTES } from '@docflow/eventstore';
import { ProblemError } from '@docflow/kit/http';
import { rejects } from '../test-fixtures';
import { decideNewDocument } from './decide';
import { command } from './test-givens';

describe('create step: decide the new document', () => {
  it('a valid command: DocumentCreated with the form, author, values and files', () => {
    const [event] = decideNewDocument(command());
    assert.equal(event?.type, 'DocumentCreated');
    assert.deepEqual(
      event?.type === 'DocumentCreated' && [
        event.data.author,
        event.data.valuesByTags,
        event.data.files.length,
      ],
      [command().author, { subject: 'Budget' }, 1],
    );
  });

  it('a value no tag of the form takes: refused as invalid', () => {
    rejects('invalid', () => decideNewDocument(command({ valuesByTags: { nosuchtag: 'x' } })));
  });

  it('an event the store could not append in one append: 413 before anything is claimed', () => {
    const huge = command({
      tags: Array.from({ length: MAX_APPEND_BYTES / 1000 }, (_, i) => `${i}`.padEnd(1000, 'x')),
    });
    assert.throws(
      () => decideNewDocument(huge),
      (err: unknown) => err instanceof ProblemError && err.status === 413,
    );
  });
});
