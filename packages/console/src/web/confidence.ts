/**
 * How sure recognition is of each value it read (`fieldsByTags[tag].confidence`, 0–100), as the review
 * marks it: `sure` from the review threshold up (the form's `autoValidateAt`: such a value would be
 * validated by the machine), `check` below it, `unsure` below UNSURE_BELOW or without a confidence
 * (recognition validates such a part never). Pure.
 */

/** The review threshold of a part judged by no `autoValidateAt` (the benchmark's straight-through mark). */
const DEFAULT_REVIEW_THRESHOLD = 90;
/** Below this a value was more guessed than read (e.g. a failed cross-check on a blurred scan). */
export const UNSURE_BELOW = 50;

export type ConfidenceLevel = 'sure' | 'check' | 'unsure';

/** The threshold the marks use and where it comes from. */
export interface ReviewThreshold {
  at: number;
  from: 'form' | 'default';
}

/**
 * The threshold a part's values are marked against: the one recognition judged the part by (the part's
 * `autoValidateAt`), else DEFAULT_REVIEW_THRESHOLD.
 * @example reviewThreshold(undefined) // { at: 90, from: 'default' }
 */
export function reviewThreshold(autoValidateAt: number | undefined): ReviewThreshold {
  return autoValidateAt === undefined
    ? { at: DEFAULT_REVIEW_THRESHOLD, from: 'default' }
    : { at: autoValidateAt, from: 'form' };
}

/**
 * @example confidenceLevel(70, 80) // 'check'
 */
export function confidenceLevel(confidence: number | undefined, threshold: number): ConfidenceLevel {
  if (confidence !== undefined && confidence >= threshold) return 'sure';
  return confidence !== undefined && confidence >= UNSURE_BELOW ? 'check' : 'unsure';
}

/**
 * The tags of `values` a validator should check, least sure first (ties in the values' order): those
 * below the threshold, by the document service's rule for automatic validation (a value without a
 * confidence counts as below it). None for a part recognised before per-field confidences.
 */
export function needsChecking(
  values: Record<string, unknown>,
  fields: Record<string, { confidence: number }> | undefined,
  threshold: number,
): string[] {
  if (!fields) return [];
  const confidenceOf = (tag: string) => fields[tag]?.confidence ?? -1;
  return Object.keys(values)
    .filter((tag) => confidenceOf(tag) < threshold)
    .sort((a, b) => confidenceOf(a) - confidenceOf(b));
}
