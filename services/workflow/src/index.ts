export { canManage, type DeputiesOf, type Deputy, isEnabledDeputy, type ManagePrincipal } from './access';
export {
  ANSWERS_BY_PHASE,
  type AnswerTask,
  type CreateAction,
  type DecisionInputs,
  decideAnswer,
  decideCreateAction,
  decideManage,
  decideRegister,
  type ManageWorkflow,
  type ParticipantIds,
  participantsToResolve,
  type RegisterWorkflow,
} from './businessLogic';
export { createWorkflowService, type WorkflowService, type WorkflowServiceDeps } from './service';
export { inboxAssignees, openTaskFor } from './views';
export {
  evolveWorkflow,
  foldWorkflow,
  initialWorkflow,
  isDeleted,
  openTasks,
  type Task,
  type WorkflowConfig,
  type WorkflowState,
  workflowAggregate,
  workflowCodes,
} from './workflow';
