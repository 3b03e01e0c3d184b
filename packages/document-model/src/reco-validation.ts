/**
 * Validation tasks of recognised parts (issue 34), the queries the document service's access rules and
 * views read: whose inbox holds a part's task while it waits, and who ever held one. Pure.
 */
import type { DocState, RecoEntry } from './docForm';

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
