/**
 * A receipt's cash rounding (issue 34): a till rounds the total to the smallest coin and prints the
 * adjustment below it (`TOTAL 60.31` / `ROUNDING ADJ -0.01`); what was paid, the total the receipt
 * stands for, is their sum. Where the total was read from a rounded-total label (`Total rounded`), or
 * no adjustment stands below it, the total is kept. Pure.
 */
import { findAmounts } from './fields/amount';
import { findLabelHits } from './labels';
import type { TextLine } from './layout-text';
import { type Candidate, cents, valueNearLabel } from './proximity';

const ROUNDING_LABELS = [
  'Rounding adjustment',
  'Rounding adj',
  'Rounding',
  'Rundung',
  'Arrondi',
  'Afronding',
  'Redondeo',
];
/** The label of a total that is rounded already. */
const ROUNDED_LABEL = /round|rund|arrondi|afrond|redonde/i;
/** An adjustment is less than a coin: a larger value beside the label is something else. */
const MAX_ADJUSTMENT = 0.1;

/** The total with the rounding adjustment below it added, or the total as read. */
export function roundedTotal(total: Candidate, lines: readonly (readonly TextLine[])[]): Candidate {
  if (total.label && ROUNDED_LABEL.test(total.label)) return total;
  const page = lines.find((p) => p[0]?.pageIdx === total.pageIdx) ?? [];
  const hits = findLabelHits(page, { rounding: ROUNDING_LABELS });
  const [, totalLine] = total.order;
  for (const hit of hits.filter((h) => h.line.lineIdx > totalLine)) {
    const adjustment = Number(valueNearLabel(hit, page, hits, findAmounts)?.value);
    if (!Number.isFinite(adjustment) || adjustment === 0 || Math.abs(adjustment) >= MAX_ADJUSTMENT) continue;
    const value = (cents(Number(total.value)) + cents(adjustment)) / 100;
    return { ...total, value: value.toFixed(2) };
  }
  return total;
}
