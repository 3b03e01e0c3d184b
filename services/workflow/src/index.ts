export { NotifyEnv, notifySettings } from './notify/config';
export { SchedulerEnv, schedulerSettings } from './scheduler/config';
export { createWorkflowService, type WorkflowService, type WorkflowServiceDeps } from './service';
