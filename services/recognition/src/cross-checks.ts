/**
 * Cross-checks between recognised values that raise or lower their confidence (issue 34). Pure.
 * They apply by tag name, as the prebuilt invoice form names its tags:
 * - the `items` table's amounts sum to `subtotal` (or, without a subtotal, to `total`, or with `tax`
 *   to `total`): both × 1.2 when they agree to the cent, × 0.8 when they do not;
 * - `subtotal` + `tax` = `total`: all three × 1.2 when they agree, × 0.7 when not;
 * - every `iban` field: × 1.1 when its ISO 13616 checksum holds, × 0.5 when it fails.
 * A factor per tag; tags no check touches keep 1.
 */
import { ibanChecksumValid } from './fields/iban';

export const AGREE = 1.2;
export const ITEMS_DISAGREE = 0.8;
export const SUMS_DISAGREE = 0.7;
export const IBAN_VALID = 1.1;
export const IBAN_INVALID = 0.5;

export interface CrossCheckInput {
  /** Normalised amounts by tag (`total`, `subtotal`, `tax`), as found. */
  amounts: Readonly<Record<string, string | undefined>>;
  /** The sum of the items' amount column, when a table was read. */
  itemsSum?: number;
  /** The IBAN values by tag. */
  ibans: Readonly<Record<string, string>>;
}

export function crossCheckFactors(input: CrossCheckInput): Record<string, number> {
  const factors: Record<string, number> = {};
  const apply = (tags: readonly string[], factor: number) => {
    for (const tag of tags) factors[tag] = (factors[tag] ?? 1) * factor;
  };
  const total = num(input.amounts.total);
  const subtotal = num(input.amounts.subtotal);
  const tax = num(input.amounts.tax);
  const { itemsSum } = input;
  if (itemsSum !== undefined) {
    if (subtotal !== undefined)
      apply(['items', 'subtotal'], same(itemsSum, subtotal) ? AGREE : ITEMS_DISAGREE);
    else if (total !== undefined && same(itemsSum, total)) apply(['items', 'total'], AGREE);
    else if (total !== undefined && tax !== undefined && same(itemsSum + tax, total))
      apply(['items', 'tax', 'total'], AGREE);
  }
  if (subtotal !== undefined && tax !== undefined && total !== undefined)
    apply(['subtotal', 'tax', 'total'], same(subtotal + tax, total) ? AGREE : SUMS_DISAGREE);
  for (const [tag, iban] of Object.entries(input.ibans))
    apply([tag], ibanChecksumValid(iban) ? IBAN_VALID : IBAN_INVALID);
  return factors;
}

function num(value: string | undefined): number | undefined {
  const n = value === undefined ? Number.NaN : Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** Equal to the cent. */
function same(a: number, b: number): boolean {
  return Math.abs(a - b) < 0.005;
}
