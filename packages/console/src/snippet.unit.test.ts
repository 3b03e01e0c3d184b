import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Doc } from './web/model';
import { searchWords, snippetOf } from './web/snippet';

const doc = (valuesByTags: Doc['valuesByTags'], more: Partial<Doc> = {}) =>
  ({ valuesByTags, _tags: [], filesList: [], ...more }) as Doc;
const marked = (d: Doc, q: string) =>
  snippetOf(d, q)
    .filter((p) => p.match)
    .map((p) => p.text);

describe('search snippets', () => {
  it('words as the API takes them: letters and digits, case and accents folded', () => {
    assert.deepEqual(searchWords('"Crane" -(harbour*) Ça'), ['crane', 'harbour', 'ca']);
  });

  it('marks whole words, the last one also as a prefix, case and accents ignored', () => {
    const d = doc({ subject: 'Café crane at the CRANES depot', note: 'other' });
    assert.deepEqual(marked(d, 'cafe crane'), ['Café', 'crane', 'CRANES']);
    assert.deepEqual(marked(d, 'crane cafe'), ['Café', 'crane'], 'only the last word is a prefix');
  });

  it('keeps markup as text and offsets right after characters outside the BMP', () => {
    const d = doc({ note: '𝔸 <b>crane</b>' });
    const parts = snippetOf(d, 'crane');
    assert.deepEqual(
      parts.map((p) => p.text),
      ['𝔸 <b>', 'crane', '</b>'],
    );
  });

  it('finds words in table values, tags and attachment names, and shortens long text', () => {
    assert.deepEqual(marked(doc({ rows: [['a', 'crane']] }), 'crane'), ['crane']);
    assert.deepEqual(marked(doc({}, { _tags: ['zanzibar'] }), 'zanzi'), ['zanzibar']);
    const long = doc({ note: `${'x '.repeat(100)}crane${' y'.repeat(200)}` });
    const parts = snippetOf(long, 'crane');
    assert.equal(parts[0]?.text, '…');
    assert.equal(parts.at(-1)?.text, '…');
    assert.ok(parts.map((p) => p.text).join('').length < 200);
  });

  it('no snippet when no text holds a word', () => {
    assert.deepEqual(snippetOf(doc({ note: 'nothing here' }), 'crane'), []);
  });
});
