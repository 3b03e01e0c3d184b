/**
 * The recognition review's confidence marks: one under each recognised value (its level in words and
 * its confidence, not colour alone), and the part's summary of the values to check, least sure first.
 */
import { type ConfidenceLevel, confidenceLevel, type ReviewThreshold } from './confidence';

/** What the level asks of a validator, for the mark's tooltip. */
const MEANING: Record<ConfidenceLevel, string> = {
  sure: 'at or above the threshold',
  check: 'below the threshold: check it',
  unsure: 'far below the threshold: check it first',
};

const thresholdText = ({ at, from }: ReviewThreshold) =>
  from === 'form'
    ? `${at}, the form's threshold for automatic validation`
    : `${at}, the console's default (the form sets no threshold)`;

/** A value's mark: `check 70` (in full to a screen reader: "Recognition confidence: check 70"). */
export function ConfidenceMark({
  confidence,
  threshold,
}: {
  /** Absent: recognition read no confidence for the value (it is not validated automatically). */
  confidence: number | undefined;
  threshold: ReviewThreshold;
}) {
  const level = confidenceLevel(confidence, threshold.at);
  const shown = confidence === undefined ? 'no confidence' : String(Math.round(confidence));
  return (
    <small class={`confidence confidence-${level}`} title={`${MEANING[level]} (${thresholdText(threshold)})`}>
      <span class="visually-hidden">Recognition confidence: </span>
      <span class="confidence-level">{level}</span> <span class="confidence-value">{shown}</span>
    </small>
  );
}

/** Beside a value read where a validator's correction taught (`source: 'memory'`): "from memory", in words. */
export function MemoryMark() {
  return (
    <small class="from-memory" title="Read where a validator's correction of this supplier's value stood">
      from memory
    </small>
  );
}

/** "Needs checking: 2 of 4 values", each a button that takes the focus to its input. */
export function NeedsChecking({
  tags,
  total,
  threshold,
  focusField,
}: {
  /** Below the threshold, least sure first. */
  tags: readonly string[];
  total: number;
  threshold: ReviewThreshold;
  focusField: (tag: string) => void;
}) {
  if (tags.length === 0)
    return (
      <p class="needs-checking needs-checking-none">
        <strong>Needs checking: none.</strong> Every value is at or above {thresholdText(threshold)}.
      </p>
    );
  return (
    <div class="needs-checking">
      <p>
        <strong>
          Needs checking: {tags.length} of {total} {total === 1 ? 'value' : 'values'}
        </strong>{' '}
        (below {thresholdText(threshold)}), least sure first:
      </p>
      <ul>
        {tags.map((tag) => (
          <li key={tag}>
            <button type="button" class="secondary" onClick={() => focusField(tag)}>
              {tag}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
