import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AGREE,
  crossCheckFactors,
  IBAN_INVALID,
  IBAN_VALID,
  ITEMS_DISAGREE,
  SUMS_DISAGREE,
} from './cross-checks';

describe('crossCheckFactors: checks between values raise or lower their confidence', () => {
  const cases: Array<
    [name: string, input: Parameters<typeof crossCheckFactors>[0], factors: Record<string, number>]
  > = [
    [
      'items sum to the subtotal, subtotal + tax = total',
      { amounts: { subtotal: '100.00', tax: '19.00', total: '119.00' }, itemsSum: 100, ibans: {} },
      { items: AGREE, subtotal: AGREE * AGREE, tax: AGREE, total: AGREE },
    ],
    [
      'items do not sum to the subtotal',
      { amounts: { subtotal: '100.00' }, itemsSum: 90, ibans: {} },
      { items: ITEMS_DISAGREE, subtotal: ITEMS_DISAGREE },
    ],
    [
      'subtotal + tax ≠ total',
      { amounts: { subtotal: '100.00', tax: '19.00', total: '191.00' }, ibans: {} },
      { subtotal: SUMS_DISAGREE, tax: SUMS_DISAGREE, total: SUMS_DISAGREE },
    ],
    [
      'no subtotal: items sum to the total',
      { amounts: { total: '35.50' }, itemsSum: 35.5, ibans: {} },
      { items: AGREE, total: AGREE },
    ],
    [
      'no subtotal: items and tax sum to the total',
      { amounts: { total: '119.00', tax: '19.00' }, itemsSum: 100, ibans: {} },
      { items: AGREE, tax: AGREE, total: AGREE },
    ],
    ['nothing to compare', { amounts: { total: '10.00' }, ibans: {} }, {}],
    [
      'IBAN checksum holds or fails',
      { amounts: {}, ibans: { iban: 'DE89370400440532013000', iban2: 'DE89370400440532013001' } },
      { iban: IBAN_VALID, iban2: IBAN_INVALID },
    ],
  ];
  for (const [name, input, factors] of cases)
    it(name, () => {
      const got = crossCheckFactors(input);
      assert.deepEqual(Object.keys(got).sort(), Object.keys(factors).sort());
      for (const [tag, f] of Object.entries(factors)) assert.ok(Math.abs(got[tag]! - f) < 1e-9, tag);
    });
});
