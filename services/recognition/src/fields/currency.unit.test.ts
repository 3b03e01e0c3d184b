import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dominantCurrency, findCurrencies } from './currency';

describe('findCurrencies: ISO 4217 from codes, symbols and words', () => {
  const cases: Array<[text: string, code: string | undefined]> = [
    ['Total 12.00 EUR', 'EUR'],
    ['€ 12', 'EUR'],
    ['12,00€', 'EUR'],
    ['Betrag in Euro', 'EUR'],
    ['montant en euros', 'EUR'],
    ['$1,234.56', 'USD'],
    ['US$ 10', 'USD'],
    ['USD 10', 'USD'],
    ['£5.00', 'GBP'],
    ['GBP 5.00', 'GBP'],
    ['CHF 100.–', 'CHF'],
    ['Fr. 100.00', 'CHF'],
    ['SFr. 100.00', 'CHF'],
    ['1 000 kr', 'SEK'],
    ['Summa 250 SEK', 'SEK'],
    ['100 zł', 'PLN'],
    ['1 500 Kč', 'CZK'],
    ['₹ 500', 'INR'],
    ['A$ 20', 'AUD'],
    ['TOTAL RM 60.30', 'MYR'],
    ['RM60.30', 'MYR'],
    ['a code in lower case is a word: eur', undefined],
    ['a word inside a longer one: Europa', undefined],
    ['an unknown three-letter word: THE', undefined],
  ];
  for (const [text, code] of cases)
    it(`${text} → ${code ?? 'none'}`, () => assert.equal(findCurrencies(text)[0]?.value, code));

  it('the offsets cover the sign', () => {
    const [m] = findCurrencies('Total: 12 € net');
    assert.equal('Total: 12 € net'.slice(m!.start, m!.end), '€');
  });
});

describe('dominantCurrency', () => {
  it('the code found most often', () => {
    assert.equal(dominantCurrency(findCurrencies('€ 1 $ 2 € 3 EUR 4'))?.value, 'EUR');
  });
  it('none found: undefined', () => assert.equal(dominantCurrency([]), undefined));
});
