export { inboxAssignees, openTaskFor } from './queries';
export {
  earliest,
  evolveWorkflow,
  foldWorkflow,
  initialWorkflow,
  isDeleted,
  openTasks,
  type StageTimer,
  stageTasks,
  type Task,
  type WorkflowState,
} from './workflow';
