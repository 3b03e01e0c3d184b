/**
 * Who may do what with a document (DESIGN.md, "Roles" and "Author"): read it, write its data, name its
 * author. Pure: the caller resolves roles, run-as and deputies beforehand.
 */
import { CAPABILITY_ROLES, type DeputiesOf, isEnabledDeputy, rejections } from '@docflow/contracts';
import { everValidators, validationAssignees } from '@docflow/document-model';
import { isDeleted, openTasks } from '@docflow/workflow-model';
import type { DocState } from './docForm';

const ACT_ON_ANY_DOCUMENT = CAPABILITY_ROLES.actOnAnyDocument;
/** Auditors read any document (its history, verification and export too) and change nothing. */
const AUDIT_ANY_DOCUMENT = CAPABILITY_ROLES.auditAnyDocument;

/** Who asks: the effective principal and its roles (the gateway's principal, run-as resolved). */
export interface AccessPrincipal {
  subject: string;
  roles: readonly string[];
}

/**
 * Every user who was ever given a task on the document (a workflow task or a validation task), or on
 * whose behalf one was (absences).
 */
export function participantsOf(doc: DocState): string[] {
  const tasks = Object.values(doc.workflow.tasks);
  return [
    ...new Set([
      ...tasks.flatMap((t) => (t.onBehalfOf ? [t.assignee, t.onBehalfOf] : [t.assignee])),
      ...everValidators(doc),
    ]),
  ];
}

/** Whether the principal's roles let it read every (live) document: view `all` then lists them all. */
export const readsEveryDocument = (principal: AccessPrincipal): boolean =>
  principal.roles.includes(ACT_ON_ANY_DOCUMENT) || principal.roles.includes(AUDIT_ANY_DOCUMENT);

/**
 * Readers: the author, the workflow participants and their enabled deputies, holders of svcAdminDocsRW
 * or svcAuditR.
 * A deleted document is read by nobody. Without `deputiesOf`, deputies are not considered (the caller
 * may look them up and ask again).
 */
export function canRead(principal: AccessPrincipal, doc: DocState, deputiesOf: DeputiesOf = {}): boolean {
  if (!doc.exists || isDeleted(doc.workflow)) return false;
  if (doc.author === principal.subject) return true;
  if (readsEveryDocument(principal)) return true;
  return participantsOf(doc).some(
    (p) => p === principal.subject || isEnabledDeputy(deputiesOf, p, principal.subject),
  );
}

/**
 * Writers of the document's data (e.g. validating recognition data): the author, a user with an open
 * task (workflow or validation), holders of svcAdminDocsRW.
 */
export function canWrite(principal: AccessPrincipal, doc: DocState): boolean {
  return (
    doc.author === principal.subject ||
    openTasks(doc.workflow).some((t) => t.assignee === principal.subject) ||
    validationAssignees(doc).includes(principal.subject) ||
    principal.roles.includes(ACT_ON_ANY_DOCUMENT)
  );
}

/**
 * The author of a new document: the effective principal unless another account is named, which needs
 * svcAdminDocsRW (forbidden without). Whether the named account exists is the identity service's to say.
 */
export function authorOf(principal: AccessPrincipal, named: string | undefined): string {
  if (named === undefined || named === principal.subject) return principal.subject;
  if (!principal.roles.includes(ACT_ON_ANY_DOCUMENT))
    throw rejections.forbidden(`naming another author needs the role ${ACT_ON_ANY_DOCUMENT}`);
  return named;
}

/** A reader of the document may download the files it holds, and no other file through it. */
export const canDownload = (doc: DocState, fileId: string): boolean => doc.files.some((f) => f.id === fileId);
