import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyPage, scorePage } from './classify';
import { RECO_FORMS } from './testing/invoice-form';

const INVOICE = RECO_FORMS.find((f) => f.id === 'inv')!;

describe('classification: keywords saturate, so a multilingual list does not lower a page\u2019s score', () => {
  const multilingual = {
    id: 'inv',
    name: 'Invoice',
    match: ['invoice', 'rechnung', 'facture', 'factuur'],
    fields: { invoiceNo: 'Invoice\\s+No\\.?\\s+(\\S+)' },
  };

  it('the issue\u2019s case: one of four keywords and its field scores 62.5 (it scored at most 43.75 < 50)', () => {
    const s = scorePage('Invoice No. 4711', multilingual);
    assert.equal(s.keywordsFound, 1);
    assert.equal(s.score, 62.5);
    assert.equal(classifyPage('Invoice No. 4711', [multilingual])?.recoFormId, 'inv');
  });

  it('the same page scores the same against one language\u2019s keywords and against four', () => {
    const english = { ...multilingual, match: ['invoice', 'total'] };
    const page = 'Invoice No. 4711\nTotal 10.00';
    const many = {
      ...multilingual,
      match: [...multilingual.match, 'total', 'gesamtbetrag', 'totaal', 'montant'],
    };
    assert.equal(scorePage(page, english).score, 100);
    assert.equal(scorePage(page, many).score, 100);
  });

  it('one keyword without any field stays below the threshold', () => {
    assert.equal(scorePage('a text that names an invoice', multilingual).score, 37.5);
    assert.equal(classifyPage('a text that names an invoice', [multilingual]), null);
  });
});

describe('classification: the typed fields\u2019 evidence counts (the prebuilt invoice form)', () => {
  const pages: Array<[language: string, text: string]> = [
    ['English', 'INVOICE\nInvoice No. 2024-17\nInvoice date: 3 August 2024\nTotal: 119.00 EUR'],
    ['German', 'Rechnung\nRechnungsnummer: 4711\nRechnungsdatum: 03.08.2024\nGesamtbetrag 119,00 €'],
    ['French', 'FACTURE\nN° de facture : FA-42\nDate de facture : 3 août 2024\nTotal TTC 119,00 €'],
    ['Dutch', 'FACTUUR\nFactuurnummer 993548900\nFactuurdatum 03-08-2024\nTotaal 119,00 EUR'],
    [
      'Spanish',
      'FACTURA\nNº de factura: A-17\nFecha de factura: 3 de agosto de 2024\nTotal a pagar 119,00 €',
    ],
  ];
  for (const [language, text] of pages)
    it(`an invoice in ${language} is recognised`, () => {
      const s = scorePage(text, INVOICE);
      assert.ok(s.score >= 75, `score ${s.score}`);
      assert.equal(classifyPage(text, RECO_FORMS)?.recoFormId, 'inv');
    });

  it('labelled values raise the score over keywords alone', () => {
    const bare = scorePage('Invoice total', INVOICE).score;
    const withFields = scorePage('Invoice No. 7\nInvoice date 2024-08-03\nTotal 10.00', INVOICE).score;
    assert.equal(bare, 75);
    assert.ok(withFields > bare, `${withFields} > ${bare}`);
  });
});
