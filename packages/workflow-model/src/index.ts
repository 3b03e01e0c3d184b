export { inboxAssignees, openTaskFor } from './queries';
export {
  evolveWorkflow,
  foldWorkflow,
  initialWorkflow,
  isDeleted,
  openTasks,
  type StageTimer,
  type Task,
  type WorkflowState,
} from './workflow';
