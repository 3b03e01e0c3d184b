import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ValuesByTags } from '@docflow/contracts';
import { IBAN_INVALID } from './cross-checks';
import { extractPartSteps } from './extract-fields';
import { layoutFromText } from './layout-from-text';
import { runSteps } from './pattern-steps';
import { INVOICE_FORM, RECO_FORMS } from './testing/invoice-form';

const INVOICE = RECO_FORMS.find((f) => f.id === 'inv')!;

function extract(text: string, confidence = 100) {
  const page = { text, layout: layoutFromText(text, 0, 'text-layer', confidence), confidence };
  return runSteps(extractPartSteps(INVOICE, [page], INVOICE_FORM.tags));
}

const ENGLISH = [
  'ACME Widgets Ltd',
  '1 High Street, London',
  'VAT Reg No: GB 123 4567 89',
  '',
  'INVOICE',
  'Invoice No.: INV-2024-0042          Invoice date: August 3, 2024',
  'Due date: 2 September 2024',
  '',
  'Description              Qty    Unit price      Amount',
  'Widget, blue               2         10.00       20.00',
  'Gadget                     1          5.50        5.50',
  '',
  'Subtotal                                        25.50',
  'VAT 20%                                          5.10',
  'Total due                                  GBP  30.60',
  '',
  'IBAN: GB82 WEST 1234 5698 7654 32',
].join('\n');

describe('the prebuilt invoice form: any supplier, no setup', () => {
  it('an English invoice: every tag, normalised', () => {
    const { valuesByTags } = extract(ENGLISH);
    assert.deepEqual(valuesByTags, {
      supplier: 'ACME Widgets Ltd',
      invoiceNo: 'INV-2024-0042',
      invoiceDate: '2024-08-03',
      dueDate: '2024-09-02',
      total: '30.60',
      subtotal: '25.50',
      tax: '5.10',
      currency: 'GBP',
      vatId: 'GB123456789',
      iban: 'GB82WEST12345698765432',
      items: [
        ['Widget, blue', '2', '10.00', '20.00'],
        ['Gadget', '1', '5.50', '5.50'],
      ],
    } satisfies ValuesByTags);
  });

  const others: Array<[language: string, text: string, expected: ValuesByTags]> = [
    [
      'German',
      [
        'Müller Bürobedarf GmbH, Hauptstraße 5, 80331 München',
        'Rechnung',
        'Rechnungs-Nr.: R-4711',
        'Rechnungsdatum: 3. März 2024',
        'Zahlbar bis: 17.03.2024',
        'Gesamtbetrag: 1.234,56 €',
        'USt-IdNr.: DE123456789',
        'IBAN DE89 3704 0044 0532 0130 00',
      ].join('\n'),
      {
        supplier: 'Müller Bürobedarf GmbH',
        invoiceNo: 'R-4711',
        invoiceDate: '2024-03-03',
        dueDate: '2024-03-17',
        total: '1234.56',
        currency: 'EUR',
        vatId: 'DE123456789',
        iban: 'DE89370400440532013000',
      },
    ],
    [
      'French',
      [
        'Dupont SARL',
        'FACTURE',
        'N° de facture : FA-2024-017',
        'Date de facture : 3 août 2024',
        "Date d'échéance : 2 septembre 2024",
        'Total HT 100,00 €',
        'TVA 20 % 20,00 €',
        'Total TTC 120,00 €',
        'N° TVA : FR 40 303 265 045',
      ].join('\n'),
      {
        supplier: 'Dupont SARL',
        invoiceNo: 'FA-2024-017',
        invoiceDate: '2024-08-03',
        dueDate: '2024-09-02',
        subtotal: '100.00',
        tax: '20.00',
        total: '120.00',
        currency: 'EUR',
        vatId: 'FR40303265045',
      },
    ],
    [
      'Dutch, values under their labels',
      [
        'Jansen B.V.',
        'FACTUUR',
        'Factuurnummer     Factuurdatum     Vervaldatum',
        '993548900         03-08-2024       02-09-2024',
        'Totaal te betalen € 60,50',
        'BTW-nummer NL123456789B01',
      ].join('\n'),
      {
        supplier: 'Jansen B.V.',
        invoiceNo: '993548900',
        invoiceDate: '2024-08-03',
        dueDate: '2024-09-02',
        total: '60.50',
        currency: 'EUR',
        vatId: 'NL123456789B01',
      },
    ],
    [
      'Spanish',
      [
        'Construcciones García S.L.',
        'FACTURA',
        'Nº de factura: A-17',
        'Fecha de factura: 3 de agosto de 2024',
        'Base imponible 100,00 €',
        'IVA 21% 21,00 €',
        'Total a pagar 121,00 €',
      ].join('\n'),
      {
        supplier: 'Construcciones García S.L.',
        invoiceNo: 'A-17',
        invoiceDate: '2024-08-03',
        subtotal: '100.00',
        tax: '21.00',
        total: '121.00',
        currency: 'EUR',
      },
    ],
    [
      'US English: month first, no legal form on the letterhead',
      ['Bob\u2019s Plumbing', 'Invoice # 1042', 'Date: 3/8/2024', 'Amount due: $1,250'].join('\n'),
      {
        supplier: 'Bob\u2019s Plumbing',
        invoiceNo: '1042',
        invoiceDate: '2024-03-08',
        total: '1250',
        currency: 'USD',
      },
    ],
  ];
  for (const [language, text, expected] of others)
    it(`an invoice in ${language}`, () => assert.deepEqual(extract(text).valuesByTags, expected));
});

describe('totals and dates as receipts and letters write them', () => {
  const cases: Array<[what: string, lines: string[], expected: ValuesByTags]> = [
    [
      'a receipt: the rounding adjustment below the total is added (what was paid)',
      [
        'TOTAL            60.31',
        'ROUNDING ADJ     -0.01',
        'CASH             70.30',
        'CHANGE           10.00',
      ],
      { total: '60.30' },
    ],
    [
      'a receipt: the rounded total, not the total above it',
      ['TOTAL            RM 33.92', 'ROUNDING ADJUSTMENT', 'TOTAL ROUNDED    RM 33.90', 'CASH   RM 50.00'],
      { total: '33.90' },
    ],
    [
      'a rounding line above the total is already in it',
      ['SUB TOTAL        60.31', 'ROUNDING         -0.01', 'TOTAL            60.30'],
      { total: '60.30' },
    ],
    [
      'a receipt: the total including GST, not the GST total',
      ['Total Sales (Excluding GST)   31.03', 'Total GST :   1.85', 'Total Sales (Inclusive of GST)  32.88'],
      { total: '32.88', subtotal: '31.03', tax: '1.85' },
    ],
    [
      'German: the gross invoice sum, not the net one (values under their labels)',
      ['Rechnungssumme netto', '845,00', 'Rechnungssumme brutto', '1.005,55'],
      { total: '1005.55', subtotal: '845.00' },
    ],
    [
      'issued at a date, delivered on another; what is due payable, and until when',
      [
        'Invoice # RE-20201121/508 issued at 2020-11-21',
        'Date of delivery 2020-11-10',
        'Total',
        '160.00',
        'Due payable: 571.04 €',
        'Please remit until 2020-12-12.',
      ],
      { invoiceDate: '2020-11-21', dueDate: '2020-12-12', total: '571.04' },
    ],
    [
      "a German letter's date line, not the print date at the foot",
      [
        'Rechnungsnummer:   2015738820',
        'München, den       01.11.2024',
        'Summe gesamt  447,88',
        'Datum: 30.10.2024',
      ],
      { invoiceDate: '2024-11-01' },
    ],
  ];
  for (const [what, lines, expected] of cases)
    it(what, () => {
      const { valuesByTags } = extract(lines.join('\n'));
      const read = Object.fromEntries(Object.keys(expected).map((tag) => [tag, valuesByTags[tag]]));
      assert.deepEqual(read, expected);
    });
});

describe('per-field confidence: words × label and type × cross-checks', () => {
  it('agreeing sums raise the amounts; a letterhead supplier is less sure than a labelled number', () => {
    const { fieldsByTags } = extract(ENGLISH);
    assert.equal(fieldsByTags.total!.confidence, 100, 'subtotal + tax = total, capped at 100');
    assert.equal(fieldsByTags.total!.raw, '30.60');
    assert.equal(fieldsByTags.total!.label, 'Total due');
    assert.equal(fieldsByTags.invoiceNo!.label, 'Invoice No');
    assert.ok(fieldsByTags.supplier!.confidence < fieldsByTags.invoiceNo!.confidence);
    assert.equal(fieldsByTags.items!.confidence, 100, 'the items sum to the subtotal');
  });

  it('sums that disagree lower the amounts', () => {
    const wrong = ENGLISH.replace(
      'Total due                                  GBP  30.60',
      'Total due GBP 36.00',
    );
    const { fieldsByTags } = extract(wrong);
    assert.ok(fieldsByTags.total!.confidence < 80, `total ${fieldsByTags.total!.confidence}`);
  });

  it('an IBAN whose checksum fails is kept, unsure', () => {
    const { valuesByTags, fieldsByTags } = extract(ENGLISH.replace('7654 32', '7654 33'));
    assert.equal(valuesByTags.iban, 'GB82WEST12345698765433');
    assert.ok(
      fieldsByTags.iban!.confidence <= 100 * 0.6 * IBAN_INVALID,
      `iban ${fieldsByTags.iban!.confidence}`,
    );
  });

  it('OCR word confidence carries into every field', () => {
    const sure = extract(ENGLISH).fieldsByTags;
    const { fieldsByTags } = extract(ENGLISH, 60);
    for (const [tag, f] of Object.entries(fieldsByTags))
      assert.ok(f.confidence < sure[tag]!.confidence, `${tag} ${f.confidence}`);
    assert.equal(fieldsByTags.invoiceNo!.confidence, 59.7, 'the second label (0.995) × words at 60');
  });
});

describe('pattern fields still run as before, beside typed ones', () => {
  it('a string field is a pattern; its value comes as matched, with the text confidence', () => {
    const form = {
      id: 'x',
      name: 'X',
      match: ['order'],
      fields: { order: 'Order:\\s+(\\S+)', total: { type: 'amount' as const, labels: ['Total'] } },
    };
    const text = 'Order: PO-1,5\nTotal 1.234,50';
    const page = { text, layout: layoutFromText(text, 0, 'ocr', 80), confidence: 80 };
    const r = runSteps(extractPartSteps(form, [page]));
    assert.deepEqual(r.valuesByTags, { order: 'PO-1,5', total: '1234.50' });
    assert.deepEqual(r.fieldsByTags.order, { confidence: 80 });
  });

  it('a typed field with a pattern reads it where no label finds a value, normalised by the type', () => {
    const form = {
      id: 'x',
      name: 'X',
      match: ['x'],
      fields: { when: { type: 'date' as const, labels: ['Datum'], pattern: 'issued (.+)' } },
    };
    const text = 'issued 3 August 2024';
    const r = runSteps(extractPartSteps(form, [{ text, layout: layoutFromText(text, 0), confidence: 100 }]));
    assert.equal(r.valuesByTags.when, '2024-08-03');
    assert.equal(r.fieldsByTags.when!.confidence, 70);
  });
});

describe('a hostile page is read in bounded work', () => {
  it('a 20,000-character line of 2,500 labels and values: the first labelled value', () => {
    const { valuesByTags } = extract('Total 1.00 '.repeat(2500).slice(0, 20_000));
    assert.equal(valuesByTags.total, '1.00');
  });
  it('2,500 lines of dates under their label', () => {
    const { valuesByTags } = extract('Invoice date\n03.08.2024\n'.repeat(1250));
    assert.equal(valuesByTags.invoiceDate, '2024-08-03');
  });
});
