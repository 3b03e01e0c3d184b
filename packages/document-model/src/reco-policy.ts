/**
 * Validation only where needed (issue 34): what a document keeps of its form's rule, and whether a
 * recognised part clears its `autoValidateAt`. Pure.
 */
import type { RecognizedPart, RecordedFormDefinition } from '@docflow/contracts';

/** What a document keeps of its form's `recognition.validation` (DocumentCreated). */
export interface RecoValidationPolicy {
  /** Absent: no part is validated automatically. */
  autoValidateAt?: number;
  /** Who validates the other parts (`usr-` ids; the author when the form names none). */
  validators: string[];
  /** The phase that does not start while a part waits for validation. */
  waitBefore?: 'approval' | 'sign' | 'execution';
}

/**
 * The policy of a document created from `form` by `author`; undefined when the form says nothing of
 * validation (its parts wait for nobody, as before issue 34).
 */
export function recoValidationPolicy(
  form: RecordedFormDefinition | undefined,
  author: string,
): RecoValidationPolicy | undefined {
  const validation = form?.recognition?.validation;
  if (!validation) return undefined;
  const validators = validation.validators.length ? [...new Set(validation.validators)] : [author];
  return {
    ...(validation.autoValidateAt === undefined ? {} : { autoValidateAt: validation.autoValidateAt }),
    validators,
    ...(validation.waitBefore ? { waitBefore: validation.waitBefore } : {}),
  };
}

/**
 * Whether recognition itself validates `part`: every value it read has a per-field confidence of at
 * least the threshold. A part without per-field confidences (recognised before them, or by a form whose
 * fields give none) or without any value is never validated automatically.
 */
export function clearsThreshold(
  part: Pick<RecognizedPart, 'valuesByTags' | 'fieldsByTags'>,
  policy: RecoValidationPolicy | undefined,
): boolean {
  const threshold = policy?.autoValidateAt;
  if (threshold === undefined || !part.fieldsByTags) return false;
  const tags = Object.keys(part.valuesByTags);
  return tags.length > 0 && tags.every((tag) => (part.fieldsByTags?.[tag]?.confidence ?? -1) >= threshold);
}
