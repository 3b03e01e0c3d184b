/**
 * Validation only where needed (issue 34), the pure rules both the document service's decisions and the
 * views read: whether a recognised part clears its form's `autoValidateAt`, and who holds a part's
 * validation task while it waits. Nothing here does I/O.
 */
import type { RecognizedPart, RecordedFormDefinition } from '@docflow/contracts';
import type { DocState, RecoEntry } from './docForm';

/** What a document keeps of its form's `recognition.validation` (DocumentCreated). */
export interface RecoValidationPolicy {
  /** Absent: no part is validated automatically. */
  autoValidateAt?: number;
  /** Who validates the other parts (`usr-` ids; the author when the form names none). */
  validators: string[];
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
  return validation.autoValidateAt === undefined
    ? { validators }
    : { autoValidateAt: validation.autoValidateAt, validators };
}

/**
 * Whether recognition itself validates `part`: every value it read has a per-field confidence of at
 * least the threshold. A part without per-field confidences (recognised before them, or by a form whose
 * fields give none) or without any value is never validated automatically.
 */
export function clearsThreshold(part: RecognizedPart, policy: RecoValidationPolicy | undefined): boolean {
  const threshold = policy?.autoValidateAt;
  if (threshold === undefined || !part.fieldsByTags) return false;
  const tags = Object.keys(part.valuesByTags);
  return tags.length > 0 && tags.every((tag) => (part.fieldsByTags?.[tag]?.confidence ?? -1) >= threshold);
}

/** The lowest per-field confidence of a part's values (for the history's words). */
export function lowestConfidence(part: Pick<RecognizedPart, 'valuesByTags' | 'fieldsByTags'>): number {
  return Math.min(...Object.keys(part.valuesByTags).map((tag) => part.fieldsByTags?.[tag]?.confidence ?? 0));
}

/** Whether the part's validation task is open: a person was asked and nobody validated it yet. */
export const validationOpen = (entry: RecoEntry): boolean =>
  !entry.validated && (entry.validators?.length ?? 0) > 0;

/** Everyone with an open validation task on the document (they find it in their `inbox`). */
export function validationAssignees(doc: DocState): string[] {
  return [...new Set(doc.recoData.filter(validationOpen).flatMap((e) => e.validators ?? []))];
}

/** Everyone ever given a validation task on the document (they may read it). */
export function everValidators(doc: DocState): string[] {
  return [...new Set(doc.recoData.flatMap((e) => e.validators ?? []))];
}
