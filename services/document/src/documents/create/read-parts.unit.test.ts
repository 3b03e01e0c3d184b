import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProblemError } from '@docflow/kit/http';
import { readParts } from './read-parts';

const invalid = (detail: RegExp) => (err: unknown) =>
  err instanceof ProblemError &&
  err.status === 400 &&
  detail.test(`${err.detail} ${JSON.stringify(err.errors)}`);

describe('create step: read the JSON parts', () => {
  it('absent parts: an empty docForm and no workflow action', () => {
    assert.deepEqual(readParts({}), { docForm: { valuesByTags: {}, _tags: [] }, action: undefined });
  });

  it('a docForm and a docResponse: both validated', () => {
    const read = readParts({
      docForm: JSON.stringify({ valuesByTags: { subject: 'Budget' }, _tags: ['finance'] }),
      docResponse: JSON.stringify({ taskstatus: 100 }),
    });
    assert.deepEqual(read, {
      docForm: { valuesByTags: { subject: 'Budget' }, _tags: ['finance'] },
      action: { taskstatus: 100 },
    });
  });

  it('a part that is not JSON: 400 naming it', () => {
    assert.throws(() => readParts({ docForm: '{' }), invalid(/the docForm part is not valid JSON/));
    assert.throws(() => readParts({ docResponse: 'x' }), invalid(/the docResponse part is not valid JSON/));
  });

  it('a part that does not fit its schema: 400 pointing into it', () => {
    assert.throws(() => readParts({ docForm: JSON.stringify({ extra: 1 }) }), invalid(/docForm/));
    assert.throws(
      () => readParts({ docResponse: JSON.stringify({ taskstatus: 7 }) }),
      invalid(/docResponse\.taskstatus/),
    );
  });
});
