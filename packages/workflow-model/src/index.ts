export { inboxAssignees, openTaskFor } from './queries';
export {
  earliest,
  evolveWorkflow,
  foldWorkflow,
  initialWorkflow,
  isDeleted,
  openTasks,
  type StageTimer,
  type Task,
  type WorkflowState,
} from './workflow';
