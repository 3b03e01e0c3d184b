import { INTERNAL_PATHS, topicsOf, workflowStream } from '@docflow/contracts';
import type { Subscription } from '@docflow/eventstore';
import { markAppends } from '@docflow/kit/eventsourcing';
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
  // The facts of one command are one append, published as one message (docs/decisions.md, "Each fact
  // by one road"): the document service records them as one change.
  const store = markAppends(deps.store, workflowStream(''));
  const app = createServiceApp(deps, { guarded: [INTERNAL_PATHS] });
  app.route('/', workflowApi({ store, identity: deps.identity, internalToken: deps.internalToken }));
  let relay: Subscription | undefined;
  return {
    app,
    async start() {
      relay ??= relayOwnStreams('workflow', deps, {
        prefixes: [workflowStream('')],
        topic: topicsOf(deps.namespace).workflow,
        wholeAppends: true,
      });
    },
    async stop() {
      await relay?.stop();
    },
  };
}
