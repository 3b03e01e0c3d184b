import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ValuesByTags } from '@docflow/contracts';
import { ValuesByTags as ValuesByTagsSchema } from '@docflow/contracts';
import { extractValues } from './extract';
import type { RecoFormDef } from './reco-form';
import { INVOICE_FORM } from './testing/invoice-form';
import { PATTERN_FORMS as RECO_FORMS } from './testing/pattern-forms';

const INVOICE = RECO_FORMS.find((f) => f.id === 'inv')!;
const NOTE = RECO_FORMS.find((f) => f.id === 'dn')!;

describe('extractValues: strings', () => {
  const cases: Array<[name: string, form: RecoFormDef, text: string, expected: ValuesByTags]> = [
    [
      'the sample invoice',
      INVOICE,
      'INVOICE\nInvoice No. INV-2026-001\nTotal: 1,234.50',
      { invoiceNo: 'INV-2026-001', total: '1,234.50' },
    ],
    ['case-insensitive', INVOICE, 'invoice number: A-7\nTOTAL 99.00', { invoiceNo: 'A-7', total: '99.00' }],
    ['the first match wins', INVOICE, 'Total: 1.00\nTotal: 2.00', { total: '1.00' }],
    ['a field that finds nothing is left out', INVOICE, 'Invoice No. X1', { invoiceNo: 'X1' }],
    [
      'the value is trimmed, one line',
      NOTE,
      'Supplier:   ACME GmbH   \nDelivered',
      { supplier: 'ACME GmbH' },
    ],
    ['nothing found', NOTE, 'lorem ipsum', {}],
  ];
  for (const [name, form, text, expected] of cases)
    it(name, () => assert.deepEqual(extractValues(form, text, INVOICE_FORM.tags), expected));

  it('an empty first group is left out', () => {
    const form = { id: 'x', name: 'X', match: ['x'], fields: { ref: 'Ref:([ ]*)$' } };
    assert.deepEqual(extractValues(form, 'Ref:   '), {});
  });

  it('an invalid stored pattern is skipped, the others still apply', () => {
    const form = { id: 'x', name: 'X', match: ['x'], fields: { bad: '(unclosed', ref: 'Ref (\\d+)' } };
    assert.deepEqual(extractValues(form, 'Ref 12'), { ref: '12' });
  });
});

describe('extractValues: tables', () => {
  const form = {
    id: 'inv',
    name: 'Invoice',
    match: ['invoice'],
    fields: { items: '^(\\d+)\\s+(.+?)\\s+([0-9][0-9.,]*)$', total: 'Total:?\\s+([0-9][0-9.,]*)' },
  };
  const text = 'INVOICE\n2 Widget blue 10.00\n1 Gadget 5.50\nTotal: 25.50';

  it('a table tag gets one row per match, the groups in order', () => {
    assert.deepEqual(extractValues(form, text, INVOICE_FORM.tags), {
      items: [
        ['2', 'Widget blue', '10.00'],
        ['1', 'Gadget', '5.50'],
      ],
      total: '25.50',
    });
  });

  it('a string tag reads with flag i only: ^ anchors the start of the text, not of a line', () => {
    assert.equal(extractValues(form, text, { items: 'string' }).items, undefined);
    assert.equal(extractValues(form, '2 Widget blue 10.00', { items: 'string' }).items, '2');
  });

  it('a table without rows is left out', () => {
    assert.deepEqual(extractValues(form, 'INVOICE', INVOICE_FORM.tags), {});
  });

  it('a group that did not take part is an empty cell', () => {
    const optional = { ...form, fields: { items: '^(\\d+)(?: x)?(?:\\s+(\\w+))?$' } };
    assert.deepEqual(extractValues(optional, '3\n4 apples', { items: 'table' }), {
      items: [
        ['3', ''],
        ['4', 'apples'],
      ],
    });
  });

  it('rows stay within the contract bounds', () => {
    const many = Array.from({ length: 1500 }, (_, i) => `${i} item 1.00`).join('\n');
    const values = extractValues(form, many, { items: 'table' });
    assert.equal((values.items as string[][]).length, 1000);
    assert.equal(ValuesByTagsSchema.safeParse(values).success, true);
  });
});

describe('extractValues: patterns run on RE2, in linear time', () => {
  const form = { id: 'x', name: 'X', match: ['x'], fields: { run: '(a+)+$', code: 'Code:\\s+(\\w+)' } };
  // A backtracking engine takes about 2^n steps for n a's followed by a character that fails `$`.
  const hostile = `Code: A1 ${'a'.repeat(10_000)}!`;

  it('(a+)+$ over 10,000 a\u2019s and a ! finishes and finds nothing, the other fields still apply', () => {
    assert.deepEqual(extractValues(form, hostile), { code: 'A1' });
  });

  it('(a+)+$ as a table over the same text finishes too', () => {
    assert.deepEqual(extractValues(form, hostile, { run: 'table' }), { code: 'A1' });
  });

  it('(a+)+$ reads normal input as before: the first group of the first match', () => {
    assert.deepEqual(extractValues(form, 'Code: B2\nrun aaa'), { run: 'aaa', code: 'B2' });
  });
});

describe('extractValues: a part of several pages', () => {
  const form = {
    id: 'inv',
    name: 'Invoice',
    match: ['invoice'],
    fields: { items: '^(\\d+)\\s+(.+?)\\s+([0-9][0-9.,]*)$', total: 'Total:?\\s+([0-9][0-9.,]*)' },
  };

  it('a string tag takes the first match in page order; a table collects the rows of every page', () => {
    const pages = ['INVOICE\n1 Widget 10.00', 'no total here\n2 Gadget 5.50', 'Total: 15.50', 'Total: 99.00'];
    assert.deepEqual(extractValues(form, pages, { items: 'table' }), {
      items: [
        ['1', 'Widget', '10.00'],
        ['2', 'Gadget', '5.50'],
      ],
      total: '15.50',
    });
  });

  it('rows over several pages stay within the contract bounds', () => {
    const page = Array.from({ length: 600 }, (_, i) => `${i} item 1.00`).join('\n');
    assert.equal((extractValues(form, [page, page], { items: 'table' }).items as string[][]).length, 1000);
  });
});
