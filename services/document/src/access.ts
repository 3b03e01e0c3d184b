/** Who may read a document (DESIGN.md, "Roles"): its author and holders of svcAdminDocsRW. */
import type { Principal } from '@docflow/kit';
import type { DocState } from './docForm';

export function canRead(principal: Principal, doc: DocState): boolean {
  return doc.author === principal.subject || principal.roles.includes('svcAdminDocsRW');
}
