/** What an event changed: JSON Pointer paths with the values before and after. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffFields } from './changes';

describe('diffFields', () => {
  it('names changed, added and removed leaves by JSON Pointer; arrays as a whole', () => {
    const before = { status: 1, valuesByTags: { subject: 'a', 'x/y': '1', gone: 'g' }, _tags: ['t'] };
    const after = { status: 2, valuesByTags: { subject: 'b', 'x/y': '1', added: 'n' }, _tags: ['t', 'u'] };
    assert.deepEqual(diffFields(before, after), [
      { path: '/_tags', before: ['t'], after: ['t', 'u'] },
      { path: '/status', before: 1, after: 2 },
      { path: '/valuesByTags/added', after: 'n' },
      { path: '/valuesByTags/gone', before: 'g' },
      { path: '/valuesByTags/subject', before: 'a', after: 'b' },
    ]);
  });

  it('an object added is listed field by field; an empty one as a whole', () => {
    assert.deepEqual(diffFields({}, { v: { a: '1' }, e: {} }), [
      { path: '/e', after: {} },
      { path: '/v/a', after: '1' },
    ]);
  });

  it('nothing changed: no entry', () => {
    assert.deepEqual(diffFields({ a: { b: [1] } }, { a: { b: [1] } }), []);
  });
});
