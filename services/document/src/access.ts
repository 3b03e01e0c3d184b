/**
 * Who may read a document (DESIGN.md, "Roles"): its author, its workflow participants and their
 * enabled deputies, and holders of svcAdminDocsRW. A deleted document is read by nobody.
 */

import { type DeputiesOf, isEnabledDeputy } from '@docflow/contracts';
import type { Principal } from '@docflow/kit';
import { isDeleted } from '@docflow/workflow-model';
import type { DocState } from './docForm';

/** Every user who was ever given a task on the document. */
export function participantsOf(doc: DocState): string[] {
  return [...new Set(Object.values(doc.workflow.tasks).map((t) => t.assignee))];
}

/** Without `deputiesOf`, deputies are not considered (the caller may look them up and ask again). */
export function canRead(principal: Principal, doc: DocState, deputiesOf: DeputiesOf = {}): boolean {
  if (!doc.exists || isDeleted(doc.workflow)) return false;
  if (doc.author === principal.subject || principal.roles.includes('svcAdminDocsRW')) return true;
  return participantsOf(doc).some(
    (p) => p === principal.subject || isEnabledDeputy(deputiesOf, p, principal.subject),
  );
}
