/** Composition of the workflow service from its ports: used by the embedded runner and by main.ts. */
import type { Bus } from '@docflow/bus';
import { topicsOf } from '@docflow/contracts';
import type { EventStore, Subscription } from '@docflow/eventstore';
import {
  checkpointStore,
  createServiceApp,
  type LocalDb,
  type Logger,
  type ServiceClient,
  startRelay,
} from '@docflow/kit';
import type { Hono } from 'hono';
import { workflowApi } from './api';

export interface WorkflowServiceDeps {
  store: EventStore;
  bus: Bus;
  /** Local database for the relay checkpoint. */
  db: LocalDb;
  log: Logger;
  /** Prefix of the bus topics and consumer groups (DOCFLOW_NAMESPACE). */
  namespace: string;
  internalToken: string;
  identity: ServiceClient;
}

export interface WorkflowService {
  app: Hono;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createWorkflowService(deps: WorkflowServiceDeps): WorkflowService {
  const { store, bus, db, log } = deps;
  const app = createServiceApp({
    log,
    internalToken: deps.internalToken,
    readiness: { eventStore: () => store.ping(), bus: () => bus.ping() },
    guarded: ['/internal/*'],
  });
  app.route('/', workflowApi({ store, identity: deps.identity, internalToken: deps.internalToken }));
  let relay: Subscription | undefined;
  return {
    app,
    async start() {
      relay = startRelay({
        name: 'workflow-relay',
        store,
        bus,
        checkpoints: checkpointStore(db),
        streamPrefixes: ['workflow-'],
        route: (e) => ({
          topic: topicsOf(deps.namespace).workflow,
          key: e.streamId.slice('workflow-'.length),
        }),
        log,
      });
    },
    async stop() {
      await relay?.stop();
    },
  };
}
