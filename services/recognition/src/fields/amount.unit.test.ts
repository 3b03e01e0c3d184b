import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findAmounts, parseAmount } from './amount';

describe('findAmounts: amounts as plain decimals with `.`', () => {
  const cases: Array<[locale: string, text: string, value: string | undefined]> = [
    ['de', '1.234,56', '1234.56'],
    ['en', '1,234.56', '1234.56'],
    ['fr', '1 234,56', '1234.56'],
    ['fr (narrow no-break space)', '1\u202f234,56 €', '1234.56'],
    ['ch', "1'234.50", '1234.50'],
    ['de, no cents', '€ 12', '12'],
    ['de, dash for cents', '12,-', '12'],
    ['nl', '€ 1.000.000,00', '1000000.00'],
    ['en, plain', 'Total 99.9', '99.90'],
    ['one decimal with comma', '4,5', '4.50'],
    ['negative', '-5.00', '-5.00'],
    ['a grouped integer', '1.234', '1234'],
    ['es', '2.345,10 EUR', '2345.10'],
    ['en, dollar sign touching', '$1,234.56', '1234.56'],
    ['a date is not an amount', '03.08.2024', undefined],
    ['an id is not an amount', 'INV-2024', undefined],
    ['a percentage is not an amount', '19%', undefined],
    ['mixed groups are not one amount', '1,234,5', undefined],
  ];
  for (const [locale, text, value] of cases)
    it(`${locale}: ${text} → ${value ?? 'none'}`, () => assert.equal(findAmounts(text)[0]?.value, value));

  it('cents make an amount surer than a bare integer', () => {
    const [withCents] = findAmounts('12.00');
    const [bare] = findAmounts('12');
    assert.ok(withCents!.quality > bare!.quality);
  });

  it('gives the offsets of each amount in the line', () => {
    const text = 'Qty 2 at 10,00 = 20,00';
    assert.deepEqual(
      findAmounts(text).map((a) => text.slice(a.start, a.end)),
      ['2', '10,00', '20,00'],
    );
  });
});

describe('parseAmount: a whole cell', () => {
  const cases: Array<[string, string | undefined]> = [
    ['1.234,56', '1234.56'],
    ['€12.00', '12.00'],
    ['12.00 €', '12.00'],
    ['abc', undefined],
    ['12 pcs', undefined],
  ];
  for (const [cell, value] of cases) it(`${cell} → ${value}`, () => assert.equal(parseAmount(cell), value));
});
