/**
 * The recognition accuracy benchmark's inputs (bench/idp-data, issue 34): the labels file validates
 * against its schema and names only files that are there, each source is recorded in SOURCES.md, the
 * baseline pattern form is one docflow accepts, and the comparison normalises both sides alike.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FormDefinition } from '@docflow/contracts';
import { sameValue } from '../../bench/idp-compare';
import { DATA_DIR, loadDevSet, missingFiles } from '../../bench/idp-labels';
import { PATTERN_INVOICE_FORM } from '../../bench/idp-patterns-form';

describe('bench/idp-data', () => {
  it('labels.json validates against its schema and every listed file exists', () => {
    const documents = loadDevSet();
    assert.deepEqual(missingFiles(documents), []);
    assert.equal(new Set(documents.map((d) => d.file)).size, documents.length, 'each file labelled once');
  });

  it('has at least 20 invoices and receipts, text-layer PDFs and scans, from several suppliers', () => {
    const documents = loadDevSet();
    assert.ok(documents.length >= 20);
    assert.ok(documents.some((d) => d.kind === 'pdf-text'));
    assert.ok(documents.some((d) => d.kind !== 'pdf-text'));
    const suppliers = new Set(documents.map((d) => d.expected.supplier?.toLowerCase()).filter(Boolean));
    assert.ok(suppliers.size >= 10, `${suppliers.size} suppliers`);
  });

  it('records every file in SOURCES.md', () => {
    const sources = readFileSync(join(DATA_DIR, 'SOURCES.md'), 'utf8');
    for (const d of loadDevSet()) assert.ok(sources.includes(`\`${d.file}\``), `${d.file} in SOURCES.md`);
  });

  it('rejects a labels file with a value not normalised, and one naming a file that is not there', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idp-labels-'));
    try {
      const [first] = loadDevSet();
      const write = (doc: unknown) =>
        writeFileSync(join(dir, 'labels.json'), JSON.stringify({ documents: [doc] }));
      write({ ...first, expected: { invoiceDate: '05.03.2018' } });
      assert.throws(() => loadDevSet(dir), /YYYY-MM-DD/);
      write({ ...first, expected: { total: '1.005,55' } });
      assert.throws(() => loadDevSet(dir), /plain decimal/);
      write(first);
      assert.deepEqual(missingFiles(loadDevSet(dir), dir), [first!.file]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('bench/idp-patterns-form', () => {
  it('is a form definition docflow accepts (every pattern runs on RE2)', () => {
    assert.equal(FormDefinition.safeParse(PATTERN_INVOICE_FORM).success, true);
  });
});

describe('bench/idp-compare sameValue', () => {
  const cases: Array<[Parameters<typeof sameValue>[0], string, string, boolean]> = [
    ['invoiceDate', '2017-11-05', '05.11.2017', true],
    ['invoiceDate', '2017-11-03', '11/03/2017', true],
    ['invoiceDate', '2014-07-11', '11. Juli 2014', true],
    ['invoiceDate', '2014-08-03', 'August 3 , 2014', true],
    ['invoiceDate', '2018-03-05', '05 MAR 2018', true],
    ['invoiceDate', '2019-01-12', '12-01-19', true],
    ['invoiceDate', '2026-02-17', 'February 17, 2026', true],
    ['invoiceDate', '2018-03-05', '20180305', true],
    ['invoiceDate', '2018-03-05', '2018-03-06', false],
    ['total', '1005.55', '1.005,55', true],
    ['total', '1005.55', '€ 1,005.55', true],
    ['total', '1589.80', '1.589,80 €', true],
    ['total', '2000.00', '2.000', true],
    ['total', '1234567.00', '1.234.567', true],
    ['total', '9.00', '9', true],
    ['total', '529.87', '529.78', false],
    ['currency', 'EUR', '€', true],
    ['currency', 'GBP', 'gbp', true],
    ['currency', 'EUR', '$', false],
    ['supplier', 'Au bon moulin', 'Au bon moulin SARL', true],
    ['supplier', 'MR D.I.Y. (JOHOR) SDN BHD', 'MR D.I.Y. (JOHOR) SDN. BHD.', true],
    ['supplier', 'Lieferant GmbH', 'LIEFERANT GMBH', true],
    ['supplier', 'Lieferant GmbH', 'Kunden AG', false],
    ['vatId', 'DE123456789', 'DE 123 456 789', true],
    ['iban', 'DE02120300000000202051', 'DE02 1203 0000 0000 2020 51', true],
    ['invoiceNo', 'RE-20201121/508', 'RE-20201121/508', true],
    ['invoiceNo', '471102', '471103', false],
  ];
  for (const [field, expected, actual, same] of cases)
    it(`${field}: ${JSON.stringify(actual)} ${same ? 'is' : 'is not'} ${expected}`, () => {
      assert.equal(sameValue(field, expected, actual), same);
    });
});
