import { INTERNAL_PATHS, topicsOf } from '@docflow/contracts';
import type { Subscription } from '@docflow/eventstore';
import {
  createServiceApp,
  relayOwnStreams,
  type ServiceBaseDeps,
  type ServiceClient,
} from '@docflow/kit/http';
import type { Hono } from 'hono';
import { workflowApi } from './api';

export interface WorkflowServiceDeps extends ServiceBaseDeps {
  identity: ServiceClient;
}

export interface WorkflowService {
  app: Hono;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createWorkflowService(deps: WorkflowServiceDeps): WorkflowService {
  const { store } = deps;
  const app = createServiceApp(deps, { guarded: [INTERNAL_PATHS] });
  app.route('/', workflowApi({ store, identity: deps.identity, internalToken: deps.internalToken }));
  let relay: Subscription | undefined;
  return {
    app,
    async start() {
      relay ??= relayOwnStreams('workflow', deps, {
        prefixes: ['workflow-'],
        topic: topicsOf(deps.namespace).workflow,
      });
    },
    async stop() {
      await relay?.stop();
    },
  };
}
