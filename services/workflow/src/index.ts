export { createWorkflowService, type WorkflowService, type WorkflowServiceDeps } from './service';
