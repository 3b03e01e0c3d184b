import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FormDefinition, RecordedFormDefinition } from './forms';

const withField = (field: unknown, kind: 'string' | 'table' = 'string') => ({
  name: 'inv',
  title: 'Invoice',
  formsystype: 2,
  tags: { f: kind },
  recognition: { forms: [{ id: 'inv', name: 'Invoice', match: ['invoice'], fields: { f: field } }] },
});

describe('FormDefinition: a field declared by type and labels', () => {
  const accepted: Array<[name: string, field: unknown, kind?: 'table']> = [
    ['a pattern string, as before', 'Total:?\\s+([0-9.,]+)'],
    ['a date with labels in several languages', { type: 'date', labels: ['Invoice date', 'Rechnungsdatum'] }],
    ['a currency without labels (found by its sign)', { type: 'currency' }],
    ['an IBAN without labels', { type: 'iban' }],
    ['a pattern field', { type: 'pattern', pattern: 'No\\.\\s+(\\d+)' }],
    [
      'an amount with a pattern to fall back on',
      { type: 'amount', labels: ['Total'], pattern: 'Sum (\\S+)' },
    ],
    [
      'a table with columns',
      { type: 'table', columns: [{ name: 'amount', type: 'amount', labels: ['Amount', 'Betrag'] }] },
      'table',
    ],
  ];
  for (const [name, field, kind] of accepted)
    it(`accepts ${name}`, () => {
      const parsed = FormDefinition.safeParse(withField(field, kind));
      assert.equal(parsed.success, true, JSON.stringify(parsed.error?.issues));
    });

  const refused: Array<[name: string, field: unknown, message: RegExp]> = [
    ['an unknown type', { type: 'colour', labels: ['x'] }, /Invalid/],
    ['a pattern field without a pattern', { type: 'pattern' }, /needs `pattern`/],
    ['a table without columns', { type: 'table', labels: ['Items'] }, /needs `columns`/],
    ['a date with neither labels nor pattern', { type: 'date' }, /needs `labels` or `pattern`/],
    ['a pattern RE2 refuses', { type: 'amount', labels: ['Total'], pattern: '(?<=x)y' }, /RE2/],
    ['an unknown key', { type: 'date', labels: ['Date'], near: 'x' }, /Unrecognized key/],
  ];
  for (const [name, field, message] of refused)
    it(`refuses ${name}, naming the field`, () => {
      const parsed = FormDefinition.safeParse(withField(field));
      assert.equal(parsed.success, false);
      const issue = parsed.error!.issues[0]!;
      assert.deepEqual(issue.path.slice(0, 5), ['recognition', 'forms', 0, 'fields', 'f']);
      assert.match(issue.message, message);
    });

  it('a recorded definition with pattern strings reads unchanged', () => {
    const recorded = withField('Invoice\\s+No\\.?\\s+(\\S+)');
    assert.deepEqual(RecordedFormDefinition.parse(recorded), recorded);
  });
});
