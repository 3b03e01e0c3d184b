import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FieldDeclaration, LayoutLine, PageLayout } from '@docflow/contracts';
import { extractPartSteps } from './extract-fields';
import { layoutFromText } from './layout-from-text';
import { runSteps } from './pattern-steps';

type Fields = Record<string, FieldDeclaration>;

function extract(fields: Fields, layout: PageLayout) {
  const form = { id: 'f', name: 'F', match: ['invoice'], fields };
  const text = layout.lines.map((l) => l.words.map((w) => w.text).join(' ')).join('\n');
  return runSteps(extractPartSteps(form, [{ text, layout, confidence: 100 }]));
}

/** A line of words at given left edges (fractions), 0.01 wide per character, at row `top`. */
function line(top: number, ...words: Array<[text: string, left: number, confidence?: number]>): LayoutLine {
  const ws = words.map(([text, left, confidence = 95]) => ({
    text,
    box: [left, top, left + text.length * 0.01, top + 0.015] as [number, number, number, number],
    confidence,
  }));
  return { box: [ws[0]!.box[0], top, ws.at(-1)!.box[2], top + 0.015], words: ws };
}

const page = (...lines: LayoutLine[]): PageLayout => ({
  pageIdx: 0,
  width: 595,
  height: 842,
  lines,
  source: 'ocr',
});

const invoiceNo: Fields = {
  invoiceNo: {
    type: 'id',
    labels: [
      'Invoice No',
      'Invoice number',
      'Rechnungsnummer',
      'Rechnungs-Nr',
      'N° de facture',
      'Factuurnummer',
    ],
  },
};
const invoiceDate: Fields = {
  invoiceDate: {
    type: 'date',
    labels: ['Invoice date', 'Rechnungsdatum', 'Date de facture', 'Factuurdatum', 'Date'],
  },
};

describe('proximity: the value of the type beside or below its label', () => {
  it('value right of the label on the same line', () => {
    const r = extract(invoiceNo, page(line(0.1, ['Invoice', 0.1], ['No.', 0.18], ['INV-2026-001', 0.25])));
    assert.equal(r.valuesByTags.invoiceNo, 'INV-2026-001');
    const f = r.fieldsByTags.invoiceNo!;
    assert.equal(f.label, 'Invoice No');
    assert.equal(f.raw, 'INV-2026-001');
    assert.equal(f.pageIdx, 0);
    assert.deepEqual(f.box, [0.25, 0.1, 0.37, 0.115]);
    assert.equal(f.confidence, 95, 'word confidence × a perfect label and type match');
  });

  it('value under the label (a header row and its values)', () => {
    const r = extract(
      { ...invoiceNo, ...invoiceDate },
      page(
        line(0.1, ['Rechnungsnummer', 0.1], ['Rechnungsdatum', 0.5]),
        line(0.12, ['993548900', 0.1], ['03.08.2024', 0.5]),
      ),
    );
    assert.equal(r.valuesByTags.invoiceNo, '993548900');
    assert.equal(r.valuesByTags.invoiceDate, '2024-08-03');
    assert.equal(r.fieldsByTags.invoiceDate!.raw, '03.08.2024');
    assert.ok(r.fieldsByTags.invoiceNo!.confidence < 95, 'below is less sure than right of the label');
  });

  it('two columns: each label takes the value of its own column', () => {
    // Left column: the customer's data; right column: the invoice's; lines never span columns.
    const r = extract(
      { ...invoiceNo, customerNo: { type: 'id', labels: ['Kundennummer', 'Kundennr'] } },
      page(
        line(0.1, ['Kundennr.', 0.05]),
        line(0.12, ['30064443', 0.05]),
        line(0.1, ['Rechnungs-Nr.', 0.55]),
        line(0.12, ['R-2024-17', 0.55]),
      ),
    );
    assert.equal(r.valuesByTags.customerNo, '30064443');
    assert.equal(r.valuesByTags.invoiceNo, 'R-2024-17');
  });

  it('a label and its value in two lines of the same row (the value column)', () => {
    const r = extract(
      invoiceDate,
      page(
        line(0.2, ['Invoice', 0.05], ['date:', 0.13]),
        line(0.2, ['August', 0.6], ['3', 0.67], [',', 0.69], ['2014', 0.71]),
      ),
    );
    assert.equal(r.valuesByTags.invoiceDate, '2014-08-03');
  });

  const languages: Array<[language: string, text: string, expected: Record<string, string>]> = [
    [
      'German',
      'Rechnungsnummer: 4711\nRechnungsdatum: 3. März 2024',
      { invoiceNo: '4711', invoiceDate: '2024-03-03' },
    ],
    [
      'French',
      'N° de facture : FA-0042\nDate de facture : 3 août 2024',
      { invoiceNo: 'FA-0042', invoiceDate: '2024-08-03' },
    ],
    [
      'Dutch',
      'Factuurnummer 993548900\nFactuurdatum 03-08-2024',
      { invoiceNo: '993548900', invoiceDate: '2024-08-03' },
    ],
    [
      'English (US)',
      'Invoice Number: 77\nInvoice Date: 3/8/2024\nTotal $ 10.00',
      { invoiceNo: '77', invoiceDate: '2024-03-08' },
    ],
  ];
  for (const [language, text, expected] of languages)
    it(`labels in ${language}`, () => {
      const r = extract({ ...invoiceNo, ...invoiceDate }, layoutFromText(text, 0));
      assert.deepEqual(r.valuesByTags, expected);
    });

  const columns: Array<[what: string, field: Fields, cells: string[], expected: string]> = [
    [
      'an amount column that ends in its sum (a row per tax rate, the sum row last): the sum',
      { total: { type: 'amount', labels: ['Endbetrag'] } },
      ['382,47', '136,52', '518,99'],
      '518.99',
    ],
    [
      'an amount column whose last row is no sum: the first value',
      { total: { type: 'amount', labels: ['Endbetrag'] } },
      ['382,47', '136,52', '500,00'],
      '382.47',
    ],
    [
      'two amounts are no column with a sum row',
      { total: { type: 'amount', labels: ['Endbetrag'] } },
      ['10,00', '10,00'],
      '10.00',
    ],
    [
      'ids are not summed (1, 2, 3 under a number label)',
      { total: { type: 'id', labels: ['Nr'] } },
      ['1', '2', '3'],
      '1',
    ],
  ];
  for (const [what, field, cells, expected] of columns)
    it(what, () => {
      const rows = cells.map((cell, i) => line(0.12 + i * 0.02, ['x', 0.1], [cell, 0.8]));
      const r = extract(field, page(line(0.1, ['Netto', 0.1], [field.total!.labels![0]!, 0.8]), ...rows));
      assert.equal(r.valuesByTags.total, expected);
    });

  it('a label inside a longer label of another field is that field\u2019s', () => {
    const fields: Fields = {
      total: { type: 'amount', labels: ['Total'] },
      subtotal: { type: 'amount', labels: ['Subtotal', 'Total excl. VAT'] },
      tax: { type: 'amount', labels: ['Total VAT', 'VAT'] },
    };
    const r = extract(fields, layoutFromText('Total excl. VAT 100.00\nTotal VAT 21.00\nTotal 121.00', 0));
    assert.deepEqual(r.valuesByTags, { total: '121.00', subtotal: '100.00', tax: '21.00' });
  });

  it('the word confidence of an OCR value lowers its field confidence', () => {
    const r = extract(invoiceNo, page(line(0.1, ['Invoice', 0.1], ['No', 0.18], ['INV-7', 0.25, 40])));
    assert.equal(r.fieldsByTags.invoiceNo!.confidence, 40);
  });

  it('no label, no value: the field is left out', () => {
    const r = extract(invoiceNo, layoutFromText('Delivery note 4711', 0));
    assert.deepEqual(r.valuesByTags, {});
    assert.deepEqual(r.fieldsByTags, {});
  });
});
