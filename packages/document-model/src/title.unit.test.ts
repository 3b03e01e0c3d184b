/** A document's title: its form's title field, else the form's title and the creation date. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type DocState, initialDoc } from './docForm';
import { documentTitle } from './title';

const doc = (changes: Partial<DocState>): DocState => ({
  ...initialDoc,
  exists: true,
  form: 'memo',
  created: '2026-11-26T18:21:49.035Z',
  ...changes,
});

describe('documentTitle', () => {
  const cases: Array<[string, Partial<DocState>, string]> = [
    [
      'the title field’s value, trimmed',
      { title: { formTitle: 'Internal memo', field: 'subject' }, valuesByTags: { subject: ' Budget 2027 ' } },
      'Budget 2027',
    ],
    [
      'an empty title field: the form’s title and the day',
      { title: { formTitle: 'Internal memo', field: 'subject' }, valuesByTags: { subject: '  ' } },
      'Internal memo, 2026-11-26',
    ],
    [
      'a title field naming a table (a form changed since): the form’s title',
      { title: { formTitle: 'Internal memo', field: 'lines' }, valuesByTags: { lines: [['a']] } },
      'Internal memo, 2026-11-26',
    ],
    ['a form without a title field', { title: { formTitle: 'Contract' } }, 'Contract, 2026-11-26'],
    ['a document created before titles: the form’s name', {}, 'memo, 2026-11-26'],
  ];
  for (const [name, changes, expected] of cases)
    it(name, () => assert.equal(documentTitle(doc(changes)), expected));
});
