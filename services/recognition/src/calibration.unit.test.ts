/**
 * Confidence calibration of the prebuilt invoice form (issue 34): a value the page supports well
 * scores at or above the straight-through threshold (90), a weak one below. Synthetic text layouts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AMBIGUOUS, ambiguityFactor, type Reading } from './ambiguity';
import { extractPartSteps } from './extract-fields';
import { findParty } from './fields/party';
import { layoutFromText } from './layout-from-text';
import { runSteps } from './pattern-steps';
import { INVOICE_FORM, RECO_FORMS } from './testing/invoice-form';

const INVOICE = RECO_FORMS.find((f) => f.id === 'inv')!;
const THRESHOLD = 90;

function extract(text: string) {
  const page = { text, layout: layoutFromText(text, 0, 'text-layer', 100), confidence: 100 };
  return runSteps(extractPartSteps(INVOICE, [page], INVOICE_FORM.tags));
}

/** A text-layer invoice whose every value is supported: sender line repeated, sums agreeing. */
const SUPPORTED = [
  'Muster GmbH • Hauptstr. 1 • 10115 Berlin',
  'Kunde AG',
  'Am Markt 5',
  '20095 Hamburg',
  '',
  'Invoice # RE-2024/17 issued at 2024-03-14',
  'Net total: 100.00 €',
  'VAT total: 19.00 €',
  'Due payable: 119.00 €',
  '',
  'Muster GmbH · Geschäftsführer Max Muster · VAT-ID: DE136695976',
  'IBAN DE88200800000970375700',
].join('\n');

describe('calibration: well supported values clear 90', () => {
  it('every value of a supported text-layer invoice is at or above the threshold', () => {
    const { valuesByTags, fieldsByTags } = extract(SUPPORTED);
    assert.equal(valuesByTags.supplier, 'Muster GmbH');
    assert.equal(valuesByTags.currency, 'EUR');
    assert.equal(valuesByTags.vatId, 'DE136695976');
    assert.equal(valuesByTags.invoiceDate, '2024-03-14');
    for (const [tag, field] of Object.entries(fieldsByTags))
      assert.ok(field.confidence >= THRESHOLD, `${tag} ${field.confidence}`);
  });

  const supplier: Array<[what: string, text: string, value: string, sure: boolean]> = [
    [
      'a sender line whose name stands again in the footer',
      'Muster GmbH • Hauptstr. 1 • 10115 Berlin\nKunde AG\n\nTotal 5.00\n\nMuster GmbH, Berlin',
      'Muster GmbH',
      true,
    ],
    [
      'a sender line with `|` separators, repeated',
      'Acme GmbH | Europa-Allee 1 | 60486 Frankfurt\nTotal 5.00\nAcme GmbH',
      'Acme GmbH',
      true,
    ],
    [
      'a sender line seen once',
      'Muster GmbH • Hauptstr. 1 • 10115 Berlin\nKunde AG\n\nTotal 5.00',
      'Muster GmbH',
      false,
    ],
    [
      'a sender line before the recipient wins over the recipient with a legal form',
      'shop.example • Somestreet 42 • 08155 Some city\nBeispiel AG\nTotal 5.00\nshop.example',
      'shop.example',
      false,
    ],
    [
      'the letterhead line with a legal form, repeated: still a guess',
      'Kunde AG\nTotal 5.00\nKunde AG',
      'Kunde AG',
      false,
    ],
    [
      'parts without a number are no address: no sender line',
      'Alpha • Beta • Gamma\nTotal 5.00',
      'Alpha • Beta • Gamma',
      false,
    ],
  ];
  for (const [what, text, value, sure] of supplier)
    it(`supplier: ${what}`, () => {
      const { valuesByTags, fieldsByTags } = extract(text);
      assert.equal(valuesByTags.supplier, value);
      assert.equal(
        fieldsByTags.supplier!.confidence >= THRESHOLD,
        sure,
        `${fieldsByTags.supplier!.confidence}`,
      );
    });

  const currency: Array<[what: string, text: string, sure: boolean]> = [
    ['the only currency, written twice', 'Net 10.00 €\nTotal 11.90 €', true],
    ['written once', 'Total 11.90 €', false],
    ['two currencies on the part', 'Net 10.00 €\nTotal 11.90 €\nTotal USD 13.00', false],
  ];
  for (const [what, text, sure] of currency)
    it(`unlabelled currency: ${what}`, () => {
      const { fieldsByTags } = extract(text);
      assert.equal(
        fieldsByTags.currency!.confidence >= THRESHOLD,
        sure,
        `${fieldsByTags.currency!.confidence}`,
      );
    });

  const vatIds: Array<[what: string, text: string, sure: boolean]> = [
    ['one VAT id, labelled', 'Invoice\nUSt-IdNr.: DE136695976', true],
    [
      "the customer's VAT id beside the label, the supplier's in the footer",
      'Invoice\nUSt-IdNr.: DE199952957\n\nUSt-IdNr. DE812871812',
      false,
    ],
    ['another VAT id anywhere on the part', 'Invoice\nVAT ID: DE136695976\nCustomer FR11999999998', false],
  ];
  for (const [what, text, sure] of vatIds)
    it(`VAT id: ${what}`, () => {
      const { fieldsByTags } = extract(text);
      assert.equal(fieldsByTags.vatId!.confidence >= THRESHOLD, sure, `${fieldsByTags.vatId!.confidence}`);
    });

  const totals: Array<[what: string, text: string, value: string, sure: boolean]> = [
    ['one grand total', 'Invoice\nAmount due: 119.00', '119.00', true],
    [
      'a vaguer label over another amount is no rival',
      'Invoice\nItem        Total\nWidget      20.00\n\nAmount due: 119.00',
      '119.00',
      true,
    ],
    [
      'the same label beside two different amounts',
      'Invoice\nAmount due: 119.00\n\nAmount due: 80.00',
      '119.00',
      false,
    ],
  ];
  for (const [what, text, value, sure] of totals)
    it(`total: ${what}`, () => {
      const { valuesByTags, fieldsByTags } = extract(text);
      assert.equal(valuesByTags.total, value);
      assert.equal(fieldsByTags.total!.confidence >= THRESHOLD, sure, `${fieldsByTags.total!.confidence}`);
    });

  it('a label written with a hyphen or a space is the same label (`VAT-ID`, `VAT ID`)', () => {
    for (const text of ['Invoice\nVAT-ID: DE136695976', 'Invoice\nVAT ID: DE136695976']) {
      const { fieldsByTags } = extract(text);
      assert.equal(fieldsByTags.vatId!.label?.replace('-', ' '), 'VAT ID');
    }
  });

  it('a date read without a label stays below the threshold', () => {
    const { valuesByTags, fieldsByTags } = extract('Invoice\n14.03.2024\nTotal 5.00');
    assert.equal(valuesByTags.invoiceDate, '2024-03-14');
    assert.ok(fieldsByTags.invoiceDate!.confidence < THRESHOLD);
  });
});

describe('ambiguityFactor', () => {
  const best: Reading = { value: 'A', quality: 1, rank: 3 };
  const cases: Array<[what: string, labelled: Reading[], sameType: string[], factor: number]> = [
    ['no other reading', [best], [], 1],
    ['the same value found twice', [best, { value: 'A', quality: 0.9, rank: 3 }], [], 1],
    [
      'a different value by the same label, nearly as good',
      [best, { value: 'B', quality: 0.85, rank: 3 }],
      [],
      AMBIGUOUS,
    ],
    ['a different value by a surer label', [best, { value: 'B', quality: 0.9, rank: 0 }], [], AMBIGUOUS],
    ['a different value by a vaguer label', [best, { value: 'B', quality: 0.95, rank: 9 }], [], 1],
    ['a different value, much weaker', [best, { value: 'B', quality: 0.5, rank: 3 }], [], 1],
    ['another identifier of the type on the part', [best], ['A', 'B'], AMBIGUOUS],
    ['the only identifier of the type', [best], ['A'], 1],
  ];
  for (const [what, labelled, sameType, factor] of cases)
    it(what, () => assert.equal(ambiguityFactor(best, labelled, sameType), factor));
});

describe('findParty: a legal form alone names no one', () => {
  const cases: Array<[text: string, expected: string | undefined]> = [
    ['GmbH', undefined],
    [': SARL', undefined],
    ['Lieferant GmbH', 'Lieferant GmbH'],
    ['ACME Ltd, 1 High Street', 'ACME Ltd'],
  ];
  for (const [text, expected] of cases)
    it(JSON.stringify(text), () => assert.equal(findParty(text)[0]?.value, expected));
});
