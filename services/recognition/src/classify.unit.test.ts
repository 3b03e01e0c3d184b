import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ClassifiedPart, classifyPage, classifyPages, type PageText, scorePage } from './classify';
import { PATTERN_FORMS } from './testing/pattern-forms';

const RECO_FORMS = PATTERN_FORMS;
const INVOICE = RECO_FORMS.find((f) => f.id === 'inv')!;
const NOTE = RECO_FORMS.find((f) => f.id === 'dn')!;

const invoiceText = 'INVOICE\nInvoice No. INV-2026-001\nTotal: 1,234.50';
const noteText = 'DELIVERY NOTE\nSupplier: ACME GmbH';
const page = (text: string, confidence = 100): PageText => ({ text, confidence });

describe('scorePage', () => {
  const cases: Array<[name: string, text: string, form: typeof INVOICE, score: number, found: number]> = [
    ['every keyword and field', invoiceText, INVOICE, 100, 2],
    ['keywords in any case', 'invoice ... TOTAL', INVOICE, 75, 2],
    ['one of two keywords, one of two fields', 'Invoice No. 42', INVOICE, 50, 1],
    ['fields alone without keywords', 'Supplier: X', NOTE, 25, 0],
    ['a keyword inside a longer word does not count', 'notebook deliveryman', NOTE, 0, 0],
    ['a phrase keyword across a line break', 'Delivery\nNote', NOTE, 75, 2],
    ['nothing', 'lorem ipsum', INVOICE, 0, 0],
  ];
  for (const [name, text, form, score, found] of cases)
    it(name, () => {
      const s = scorePage(text, form);
      assert.equal(s.score, score);
      assert.equal(s.keywordsFound, found);
      assert.equal(s.recoFormId, form.id);
    });

  it('a keyword is a whole word in any script: letters, digits and _ may not touch it', () => {
    const form = { id: 'x', name: 'X', match: ['rechnung', 'café'], fields: {} };
    assert.equal(
      scorePage('Rechnung (CAFÉ)', form).keywordsFound,
      2,
      'punctuation and the text ends bound it',
    );
    assert.equal(scorePage('Rechnungsnummer cafés', form).keywordsFound, 0);
    assert.equal(scorePage('ÜRechnung 1café _rechnung', form).keywordsFound, 0);
    assert.equal(scorePage('Rechnung_', form).keywordsFound, 0);
  });

  it('a phrase matches across any whitespace, no-break spaces included', () => {
    const form = { id: 'x', name: 'X', match: ['purchase order'], fields: {} };
    for (const text of ['purchase\u00a0order', 'purchase\t \r\norder', 'purchase\u2003order'])
      assert.equal(scorePage(text, form).keywordsFound, 1, JSON.stringify(text));
  });

  it('a keyword with pattern characters is matched literally', () => {
    const form = { id: 'x', name: 'X', match: ['Nr. (a+)+$'], fields: {} };
    assert.equal(scorePage('see nr. (A+)+$ here', form).keywordsFound, 1);
    assert.equal(scorePage('see nrx aaaa', form).keywordsFound, 0);
  });

  it('a hostile field pattern over 10,000 a\u2019s and a ! finishes', () => {
    const form = { id: 'x', name: 'X', match: ['code'], fields: { run: '(a+)+$' } };
    assert.equal(scorePage(`code ${'a'.repeat(10_000)}!`, form).score, 75);
  });

  it('a multi-word keyword matches as a phrase', () => {
    const form = { id: 'x', name: 'X', match: ['purchase order'], fields: {} };
    assert.equal(scorePage('PURCHASE   ORDER 7', form).score, 100);
    assert.equal(scorePage('purchase of an order', form).score, 0);
  });
});

describe('classifyPage', () => {
  const cases: Array<[name: string, text: string, expected: string | null]> = [
    ['an invoice', invoiceText, 'inv'],
    ['a delivery note', noteText, 'dn'],
    ['a delivery note that mentions an invoice number', `${noteText}\nInvoice No. INV-1`, 'dn'],
    ['an empty page', '', null],
    ['below the threshold', 'total', null],
  ];
  for (const [name, text, expected] of cases)
    it(name, () => assert.equal(classifyPage(text, RECO_FORMS)?.recoFormId ?? null, expected));

  it('on a tie the form listed first wins', () => {
    const twin = { ...INVOICE, id: 'inv2' };
    assert.equal(classifyPage(invoiceText, [twin, INVOICE])?.recoFormId, 'inv2');
  });

  it('the threshold is an option', () => {
    assert.equal(classifyPage('total', RECO_FORMS, 30)?.recoFormId, 'inv');
  });
});

describe('classifyPages', () => {
  const cases: Array<[name: string, pages: PageText[], parts: ClassifiedPart[]]> = [
    ['no pages', [], []],
    [
      'one invoice page',
      [page(invoiceText)],
      [{ recoFormId: 'inv', pageIdxStart: 0, pageIdxEnd: 0, confidence: 100 }],
    ],
    [
      'two forms in one file',
      [page(invoiceText), page(noteText)],
      [
        { recoFormId: 'inv', pageIdxStart: 0, pageIdxEnd: 0, confidence: 100 },
        { recoFormId: 'dn', pageIdxStart: 1, pageIdxEnd: 1, confidence: 100 },
      ],
    ],
    [
      'consecutive pages of one form make one part, confidence is their mean',
      [page(invoiceText, 90), page('Invoice total', 70), page(noteText, 80)],
      [
        { recoFormId: 'inv', pageIdxStart: 0, pageIdxEnd: 1, confidence: 71.3 },
        { recoFormId: 'dn', pageIdxStart: 2, pageIdxEnd: 2, confidence: 80 },
      ],
    ],
    [
      'an unrecognised page splits two parts of the same form',
      [page(invoiceText), page('terms and conditions'), page(invoiceText)],
      [
        { recoFormId: 'inv', pageIdxStart: 0, pageIdxEnd: 0, confidence: 100 },
        { recoFormId: 'inv', pageIdxStart: 2, pageIdxEnd: 2, confidence: 100 },
      ],
    ],
    [
      'OCR confidence outside 0–100 is clamped',
      [page(invoiceText, 140), page(noteText, Number.NaN)],
      [
        { recoFormId: 'inv', pageIdxStart: 0, pageIdxEnd: 0, confidence: 100 },
        { recoFormId: 'dn', pageIdxStart: 1, pageIdxEnd: 1, confidence: 0 },
      ],
    ],
  ];
  for (const [name, pages, parts] of cases)
    it(name, () => assert.deepEqual(classifyPages(pages, RECO_FORMS), parts));

  it('no recognition forms: no parts', () => {
    assert.deepEqual(classifyPages([page(invoiceText)], []), []);
  });
});
