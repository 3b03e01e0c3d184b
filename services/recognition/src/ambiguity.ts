/**
 * A value is less sure when the part offers a rival for its field (issue 34, confidence calibration).
 * Pure.
 *
 * - A label of the field at least as sure as the chosen value's (as early in the field's list: the
 *   same label again, or a surer one) points at a different value that is nearly as good (at least
 *   RIVAL_SHARE of the best's quality): which one the document means is a guess (`USt-IdNr.` beside
 *   the customer's number and again in the footer beside the supplier's). A vaguer label's other
 *   value (`Total` over a column of line totals, when `Amount due` found the total) is no rival.
 * - An identifier that names one party's account or registration (a VAT id, an IBAN) while the part
 *   holds another one of the same type: an invoice between two companies prints both VAT ids, and the
 *   one beside a label may be the customer's.
 * Either way the value's confidence is multiplied by AMBIGUOUS; a value with no rival keeps it.
 */

/** A rival at least this share of the best value's quality makes the choice a guess. */
export const RIVAL_SHARE = 0.8;
export const AMBIGUOUS = 0.8;

export interface Reading {
  value: string;
  /** 0–1. */
  quality: number;
  /** Position of the label that found it in the field's list (labels.ts); none: found without one. */
  rank?: number;
}

/**
 * The factor of the chosen value `best`: AMBIGUOUS when one of `labelled` (every value the field's
 * labels found) or of `sameType` (every value of an identifier type anywhere on the part) differs from
 * it and is a rival, else 1.
 */
export function ambiguityFactor(
  best: Reading,
  labelled: readonly Reading[],
  sameType: readonly string[] = [],
): number {
  const rivalLabelled = labelled.some(
    (r) =>
      r.value !== best.value &&
      r.quality >= RIVAL_SHARE * best.quality &&
      (r.rank ?? 0) <= (best.rank ?? Number.POSITIVE_INFINITY),
  );
  const rivalOfType = sameType.some((v) => v !== best.value);
  return rivalLabelled || rivalOfType ? AMBIGUOUS : 1;
}
