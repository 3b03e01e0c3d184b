/**
 * Who may manage a document's workflow (POST docResponse) and who may answer a task (PUT
 * docResponse/{respId}). Pure: the caller resolves roles, run-as and deputies beforehand.
 */
import { capabilitiesOf, MANAGEMENT_TASK_STATUS } from '@docflow/contracts';
import type { WorkflowState } from '@docflow/workflow-model';

export interface ManagePrincipal {
  /** The effective principal: the run-as user, or the service account without run-as. */
  subject: string;
  /** Roles of the effective principal only. */
  roles: readonly string[];
  /** True when a service account acts without `svc-run-as`. */
  isServiceAccount: boolean;
}

/**
 * Contract, Authentication 3–4, read with DESIGN.md's Roles: the author (the initiator) may do
 * everything, delete included. Anyone else needs `svcAdminDocRW` or `svcAdminDocRWD`, and 111 needs
 * `svcAdminDocRWD`. A service account acting without run-as on a document it did not author needs
 * `svcAdminDocsRW` as well (point 4); with run-as only the roles the user and the service account both
 * hold count, so point 4's "alternative" is running as the author (or as a user holding the management
 * role the service account holds too).
 */
export function canManage(principal: ManagePrincipal, state: WorkflowState, taskstatus: number): boolean {
  if (state.author === principal.subject) return true;
  const may = capabilitiesOf(principal);
  return taskstatus === MANAGEMENT_TASK_STATUS.delete ? may.deleteOthersDocuments : may.manageOthersWorkflows;
}
