import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findDates, monthFirstHint } from './date';

describe('findDates: ISO YYYY-MM-DD from the common written forms', () => {
  const cases: Array<[locale: string, text: string, iso: string | undefined, monthFirst?: boolean]> = [
    ['ISO', '2024-08-03', '2024-08-03'],
    ['ISO with slashes', '2024/8/3', '2024-08-03'],
    ['de', '03.08.2024', '2024-08-03'],
    ['de, spaced', '03. 08. 2024', '2024-08-03'],
    ['de, two-digit year', '03.08.24', '2024-08-03'],
    ['de, written', '3. März 2024', '2024-03-03'],
    ['de, written without umlaut', '3. Maerz 2024', '2024-03-03'],
    ['de-AT', '15. Jänner 2024', '2024-01-15'],
    ['fr', '3 août 2024', '2024-08-03'],
    ['fr, first of the month', '1er février 2024', '2024-02-01'],
    ['fr, numeric', '03/08/2024', '2024-08-03'],
    ['nl', '3 augustus 2024', '2024-08-03'],
    ['nl, abbreviated', '12 mrt 2024', '2024-03-12'],
    ['nl, numeric with dashes', '03-08-2024', '2024-08-03'],
    ['es', '3 de agosto de 2024', '2024-08-03'],
    ['es, abbreviated', '3 ene. 2024', '2024-01-03'],
    ['it', '3 settembre 2024', '2024-09-03'],
    ['en-GB', '3rd August 2024', '2024-08-03'],
    ['en-GB, numeric', '3/8/2024', '2024-08-03'],
    ['en-US, numeric with a hint', '3/8/2024', '2024-03-08', true],
    ['en-US', 'August 3, 2024', '2024-08-03'],
    ['en-US, OCR spacing', 'August 3 , 2014', '2014-08-03'],
    ['en-US, abbreviated', 'Aug. 3rd 2024', '2024-08-03'],
    ['en, day-month-year with dashes', '03-Aug-2024', '2024-08-03'],
    ['unambiguous day over 12 whatever the hint', '25/12/2024', '2024-12-25', true],
    ['unambiguous month first', '12/25/2024', '2024-12-25'],
    ['impossible date', '31.02.2024', undefined],
    ['an amount is no date', '1.234,56', undefined],
    ['a version-like number is no date', '3.8.2024.1', undefined],
  ];
  for (const [locale, text, iso, monthFirst] of cases)
    it(`${locale}: ${text} → ${iso ?? 'none'}`, () =>
      assert.equal(findDates(text, { monthFirst })[0]?.value, iso));

  it('finds the date inside a line, with its offsets', () => {
    const text = 'Rechnungsdatum: 3. März 2024 Seite 1';
    const [d] = findDates(text);
    assert.equal(text.slice(d!.start, d!.end), '3. März 2024');
  });
});

describe('monthFirstHint', () => {
  it('a day over 12 first says day first', () => assert.equal(monthFirstHint('13/01/2024', true), false));
  it('a day over 12 second says month first', () => assert.equal(monthFirstHint('01/13/2024', false), true));
  it('ambiguous dates: dollars decide', () => {
    assert.equal(monthFirstHint('01/02/2024', true), true);
    assert.equal(monthFirstHint('01/02/2024', false), false);
  });
});
